import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CONTACT_RATE_LIMIT } from "../../app/features/contact/message";
import { OWNER_PASSWORD, sleep, startServer, tail, type ServerProcess } from "./harness";

/**
 * Behind a real nginx reverse proxy on loopback, with TRUST_PROXY naming it: the throttles and
 * the contact limit count each visitor, not the proxy; X-Forwarded-For sent by a visitor (to
 * nginx, or straight to the server) changes nothing; X-Forwarded-Proto from the proxy decides
 * secure cookies and HSTS. Visitors are told apart by the loopback address they connect from
 * (127.0.0.2, 127.0.0.3, …: all of 127/8 is this machine).
 */
const SERVER_PORT = 3248;
const PROXY_PORT = 3249;
/** A second nginx server block that says the visitor came over https, as a TLS proxy would. */
const TLS_PROXY_PORT = 3250;
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

const nginxConf = (dir: string) => `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${PROXY_PORT};
    location / {
      proxy_pass http://127.0.0.1:${SERVER_PORT};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
  server {
    listen 127.0.0.1:${TLS_PROXY_PORT};
    location / {
      proxy_pass http://127.0.0.1:${SERVER_PORT};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
    }
  }
}`;

type Reply = { status: number; headers: Record<string, string | string[] | undefined> };

/** One request from the loopback address `from`, to `port`. */
function send(
  port: number,
  from: string,
  pathName: string,
  { form, headers = {} }: { form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        path: pathName,
        method: body ? "POST" : "GET",
        headers: {
          ...(body
            ? {
                "content-type": "application/x-www-form-urlencoded",
                "content-length": String(Buffer.byteLength(body)),
              }
            : {}),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const message = (n: number) => ({
  name: "Recruiter",
  email: `recruiter${n}@example.com`,
  message: `Hello, this is message number ${n} about a role in Dublin.`,
});

describe("behind nginx with TRUST_PROXY", () => {
  let dir = "";
  let server: ServerProcess;
  let nginx: ChildProcess;
  let nginxOutput = "";

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-proxy-"));
    for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, sub));
    writeFileSync(path.join(dir, "nginx.conf"), nginxConf(dir));
    server = await startServer(SERVER_PORT, {
      DATA_DIR: path.join(dir, "data"),
      TRUST_PROXY: "127.0.0.1",
      CONTACT_RATE_LIMIT: String(CONTACT_RATE_LIMIT.messages),
      SEED_DEMO: "false",
    });
    nginx = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    nginx.stdout!.on("data", (chunk) => (nginxOutput += chunk));
    nginx.stderr!.on("data", (chunk) => (nginxOutput += chunk));
    for (let i = 0; i < 100; i++) {
      const ready = await send(PROXY_PORT, "127.0.0.1", "/healthz").then(
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
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts the contact limit per visitor, and ignores X-Forwarded-For a visitor sends", async () => {
    const counts: Record<string, number[]> = {};
    const record = (who: string, status: number) => (counts[who] ??= []).push(status);
    // Visitor A, through nginx: the limit, then 429, even when it makes up other addresses.
    for (let i = 0; i < CONTACT_RATE_LIMIT.messages + 1; i++) {
      record(
        "A via nginx",
        (await send(PROXY_PORT, "127.0.0.2", "/api/contact", { form: message(i) })).status,
      );
    }
    for (const spoof of ["198.51.100.1", "10.9.9.9", "127.0.0.1", "2001:db8::1"]) {
      const reply = await send(PROXY_PORT, "127.0.0.2", "/api/contact", {
        form: message(9),
        headers: { "x-forwarded-for": spoof },
      });
      record("A via nginx, spoofed X-Forwarded-For", reply.status);
    }
    // Visitor B, through the same nginx: a quota of its own.
    record(
      "B via nginx",
      (await send(PROXY_PORT, "127.0.0.3", "/api/contact", { form: message(20) })).status,
    );
    // Visitor C, straight to the server from an address that is no trusted proxy, claiming to
    // be someone else each time: counted as itself.
    for (let i = 0; i < CONTACT_RATE_LIMIT.messages + 1; i++) {
      const reply = await send(SERVER_PORT, "127.0.0.4", "/api/contact", {
        form: message(30 + i),
        headers: { "x-forwarded-for": `198.51.100.${i + 10}` },
      });
      record("C direct, spoofed X-Forwarded-For", reply.status);
    }
    console.log(
      "contact limit behind nginx (status per message):\n" +
        Object.entries(counts)
          .map(([who, statuses]) => `  ${who}: ${statuses.join(" ")}`)
          .join("\n"),
    );
    const ok = Array<number>(CONTACT_RATE_LIMIT.messages).fill(200);
    expect(counts["A via nginx"], tail(server)).toEqual([...ok, 429]);
    expect(counts["A via nginx, spoofed X-Forwarded-For"]).toEqual([429, 429, 429, 429]);
    expect(counts["B via nginx"]).toEqual([200]);
    expect(counts["C direct, spoofed X-Forwarded-For"]).toEqual([...ok, 429]);
  });

  it("counts IPv6 visitors by their /64", async () => {
    // As an IPv6-facing proxy on this machine would forward them (127.0.0.1 is trusted).
    const statuses: number[] = [];
    for (let i = 0; i < CONTACT_RATE_LIMIT.messages + 1; i++) {
      const reply = await send(SERVER_PORT, "127.0.0.1", "/api/contact", {
        form: message(40 + i),
        headers: { "x-forwarded-for": `2001:db8:aa:bb::${(i + 1).toString(16)}` },
      });
      statuses.push(reply.status);
    }
    const other = await send(SERVER_PORT, "127.0.0.1", "/api/contact", {
      form: message(50),
      headers: { "x-forwarded-for": "2001:db8:aa:cc::1" },
    });
    console.log(
      `contact limit, six addresses of one /64: ${statuses.join(" ")}; the next /64: ${other.status}`,
    );
    expect(statuses).toEqual([...Array<number>(CONTACT_RATE_LIMIT.messages).fill(200), 429]);
    expect(other.status).toBe(200);
  });

  it("throttles wrong passwords per visitor: another visitor's failures do not refuse the owner", async () => {
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await send(PROXY_PORT, "127.0.0.5", "/login", {
        form: { password: `wrong password ${i}`, redirectTo: "/" },
      });
      wrong.push(reply.status);
    }
    const owner = await send(PROXY_PORT, "127.0.0.6", "/login", {
      form: { password: OWNER_PASSWORD, redirectTo: "/" },
    });
    const attackerRight = await send(PROXY_PORT, "127.0.0.5", "/login", {
      form: { password: OWNER_PASSWORD, redirectTo: "/" },
    });
    console.log(
      `sign-in behind nginx: attacker ${wrong.join(" ")}, then the right password ${attackerRight.status}; the owner from elsewhere ${owner.status}`,
    );
    expect(wrong.at(-1)).toBe(429);
    expect(attackerRight.status).toBe(429);
    expect(owner.status).toBe(302);
  });

  it("never refuses the owner's browser for failures from its own address; busy checks get 503", async () => {
    const signInFrom = (from: string, password: string, cookie?: string) =>
      send(PROXY_PORT, from, "/login", {
        form: { password, redirectTo: "/" },
        headers: cookie ? { cookie } : {},
      });
    const first = await signInFrom("127.0.0.10", OWNER_PASSWORD);
    expect(first.status).toBe(302);
    const cookies = ([] as string[]).concat(first.headers["set-cookie"] ?? []);
    const device = cookies.find((c) => c.startsWith("device="))?.split(";")[0];
    expect(device, cookies.join("\n")).toMatch(/^device=/);
    // Someone else behind the same address (a shared office, the same phone network) guesses.
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) guesses.push((await signInFrom("127.0.0.10", `guess ${i}`)).status);
    const withoutDevice = await signInFrom("127.0.0.10", OWNER_PASSWORD);
    const withDevice = await signInFrom("127.0.0.10", OWNER_PASSWORD, device);
    console.log(
      `device cookie behind nginx: guesser ${guesses.join(" ")}; owner without the device cookie ${withoutDevice.status}, with it ${withDevice.status}`,
    );
    expect(guesses.at(-1)).toBe(429);
    expect(withoutDevice.status).toBe(429);
    expect(withDevice.status).toBe(302);

    // Eight guesses at once from eight visitors: at most two password checks run, the rest are
    // told to come back in a second.
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signInFrom(`127.0.1.${i + 1}`, `burst ${i}`)),
    );
    const statuses = burst.map((reply) => reply.status);
    console.log(`8 sign-ins at once behind nginx: ${statuses.join(" ")}`);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    for (const reply of burst.filter((r) => r.status === 503)) {
      expect(reply.headers["retry-after"]).toBe("1");
    }
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
  });

  it("takes https from the proxy's X-Forwarded-Proto: secure cookie and HSTS there only", async () => {
    const overTls = await send(TLS_PROXY_PORT, "127.0.0.7", "/login", {
      form: { password: OWNER_PASSWORD, redirectTo: "/" },
    });
    expect(overTls.status).toBe(302);
    const tlsCookie = String(overTls.headers["set-cookie"]);
    expect(tlsCookie).toMatch(/^__Host-session=/);
    expect(tlsCookie).toContain("Secure");
    expect(overTls.headers["strict-transport-security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    // The first asks render `/`; the later ones are cache hits, answered at the listener
    // (server/fast-path.ts), which must decide https from the proxy the same way.
    for (let i = 0; i < 3; i++) {
      const page = await send(TLS_PROXY_PORT, "127.0.0.7", "/");
      expect(page.status).toBe(200);
      expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    }

    const plain = await send(PROXY_PORT, "127.0.0.8", "/login", {
      form: { password: OWNER_PASSWORD, redirectTo: "/" },
    });
    expect(String(plain.headers["set-cookie"])).toMatch(/^session=/);
    expect(String(plain.headers["set-cookie"])).not.toContain("Secure");
    for (let i = 0; i < 3; i++) {
      expect(
        (await send(PROXY_PORT, "127.0.0.8", "/")).headers["strict-transport-security"],
      ).toBeUndefined();
    }
    // A visitor straight to the server cannot claim https.
    const claimed = await send(SERVER_PORT, "127.0.0.9", "/", {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(claimed.headers["strict-transport-security"]).toBeUndefined();
  });
});
