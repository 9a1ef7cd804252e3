import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { verifyPurge } from "../../server/page-cache/purge";
import {
  findPostSlug,
  freshPostgres,
  sleep,
  startServer,
  tail,
  TEST_DATABASE_URL,
  type PostgresDatabase,
  type ServerProcess,
} from "./harness";

/**
 * The site behind nginx's `proxy_cache`, with CDN_PURGE_URL pointing at a small adapter that
 * checks the signature and asks nginx's purge location (Debian's libnginx-mod-http-cache-purge,
 * one key per request) to drop each URL: a page nginx keeps for ten minutes is served fresh
 * right after an edit (docs/decisions/043-cdn-purge.md).
 */
const SERVER_PORT = 3400;
const PROXY_PORT = 3401;
const ADAPTER_PORT = 3402;
const SECRET = "the-nginx-purge-test-secret";
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const PURGE_MODULE = "/usr/lib/nginx/modules/ngx_http_cache_purge_module.so";

const nginxConf = (dir: string) => `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
load_module ${PURGE_MODULE};
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache keys_zone=pages:1m;
  server {
    listen 127.0.0.1:${PROXY_PORT};
    location / {
      proxy_pass http://127.0.0.1:${SERVER_PORT};
      proxy_cache pages;
      proxy_cache_key $uri$is_args$args;
      # Far longer than the site's s-maxage: only a purge makes an edit show.
      proxy_ignore_headers Cache-Control Expires;
      proxy_cache_valid 200 10m;
      add_header X-Cache $upstream_cache_status;
    }
    location ~ ^/__purge(/.*)$ {
      allow 127.0.0.1;
      deny all;
      proxy_cache_purge pages $1$is_args$args;
    }
  }
}`;

/**
 * The adapter: a signed purge becomes one request per URL to nginx's purge location (404:
 * not in the cache); everything empties the cache's folder, which this module build cannot.
 */
function startAdapter(cacheDir: string, seen: unknown[]) {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      void (async () => {
        const header = (name: string) => (req.headers[name] as string | undefined) ?? null;
        const signed = { timestamp: header("x-purge-timestamp"), signature: header("x-signature") };
        if (!verifyPurge(body, signed, SECRET)) {
          res.statusCode = 401;
          return;
        }
        const purge = JSON.parse(body) as { urls?: string[]; all?: true };
        seen.push(purge);
        if (purge.all) {
          for (const entry of readdirSync(cacheDir)) {
            rmSync(path.join(cacheDir, entry), { recursive: true, force: true });
          }
        }
        for (const url of purge.urls ?? []) {
          const { pathname, search } = new URL(url);
          const answer = await fetch(`http://127.0.0.1:${PROXY_PORT}/__purge${pathname}${search}`);
          if (answer.status !== 200 && answer.status !== 404) {
            res.statusCode = 502;
            return;
          }
        }
        res.statusCode = 200;
      })()
        .catch(() => (res.statusCode = 502))
        .finally(() => res.end());
    });
  });
  return new Promise<Server>((resolve) =>
    server.listen(ADAPTER_PORT, "127.0.0.1", () => resolve(server)),
  );
}

const viaNginx = async (pathName: string) => {
  const response = await fetch(`http://127.0.0.1:${PROXY_PORT}${pathName}`);
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    html: await response.text(),
  };
};

describe.skipIf(!TEST_DATABASE_URL)("a CDN purge through nginx's cache_purge", () => {
  let dir = "";
  let database: PostgresDatabase;
  let server: ServerProcess;
  let nginx: ChildProcess;
  let adapter: Server;
  let nginxOutput = "";
  const seen: unknown[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-purge-"));
    for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi", "cache"]) {
      mkdirSync(path.join(dir, sub));
    }
    writeFileSync(path.join(dir, "nginx.conf"), nginxConf(dir));
    database = await freshPostgres("purge");
    adapter = await startAdapter(path.join(dir, "cache"), seen);
    server = await startServer(SERVER_PORT, {
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: database.url,
      SEED_DEMO: "true",
      SITE_URL: `http://127.0.0.1:${PROXY_PORT}`,
      CDN_PURGE_URL: `http://127.0.0.1:${ADAPTER_PORT}/`,
      CDN_PURGE_SECRET: SECRET,
    });
    nginx = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    nginx.stdout!.on("data", (chunk) => (nginxOutput += chunk));
    nginx.stderr!.on("data", (chunk) => (nginxOutput += chunk));
    for (let i = 0; i < 100; i++) {
      const ready = await viaNginx("/healthz").then(
        (reply) => reply.status === 200,
        () => false,
      );
      if (ready) return;
      if (nginx.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`nginx did not start:\n${nginxOutput}`);
  });

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await server?.stop();
    await new Promise((resolve) => adapter?.close(resolve));
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** No job due soon (the recurring ones wait hours), and no purge for a while. */
  const settled = async () => {
    for (let quietSince = Date.now(), count = seen.length; Date.now() - quietSince < 2000;) {
      await sleep(100);
      const [due] = await database.query<{ count: number }>(
        "select count(*)::int as count from jobs where status = 'pending' and run_at < now() + interval '5 seconds'",
      );
      if (due!.count > 0 || seen.length !== count) [quietSince, count] = [Date.now(), seen.length];
    }
  };

  it("serves an edited post fresh at once, and keeps the pages the edit does not touch", async () => {
    const slug = await findPostSlug(`http://127.0.0.1:${SERVER_PORT}`);
    // Start-up's own changes (the seed, its share cards) purge too: let them pass first.
    await settled();
    for (const page of [`/blog/${slug}`, "/blog", "/resume.json"]) {
      await viaNginx(page);
      expect((await viaNginx(page)).cache, page).toBe("HIT");
    }
    const title = `Edited at ${Date.now()}`;
    const before = Date.now();
    await database.query("update blog_posts set title = $1 where slug = $2", [title, slug]);
    let post = await viaNginx(`/blog/${slug}`);
    while (!post.html.includes(title) && Date.now() - before < 15_000) {
      await sleep(50);
      post = await viaNginx(`/blog/${slug}`);
    }
    const waited = Date.now() - before;
    console.log(
      `an edited post served fresh by nginx after ${waited} ms (nginx keeps pages 10 min)`,
    );
    expect(post.html, tail(server)).toContain(title);
    expect((await viaNginx("/blog")).html).toContain(title);
    // The résumé shows no post: still nginx's copy.
    expect((await viaNginx("/resume.json")).cache).toBe("HIT");
    expect(seen).toContainEqual({
      urls: expect.arrayContaining([
        `http://127.0.0.1:${PROXY_PORT}/blog/${slug}`,
        `http://127.0.0.1:${PROXY_PORT}/blog`,
      ]) as unknown,
    });
  });
});
