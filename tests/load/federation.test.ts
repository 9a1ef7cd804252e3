import { createServer, type Server } from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { checkDelivery, type Delivery } from "../fediverse/wire-check";
import {
  findPostSlug,
  freshPostgres,
  sleep,
  startReferenceServer,
  startServer,
  tail,
  TEST_DATABASE_URL,
  type PostgresDatabase,
  type ServerProcess,
} from "./harness";
import { PROBE_P99_MS } from "./owner-site";
import { startProbeBeside, type PathStats } from "./probe";

/**
 * Federation at scale, on PostgreSQL with two instances of the built server sharing it: 1,000
 * followers behind 50 shared inboxes (50 loopback addresses, 127.0.1.1 to 127.0.1.50, each its
 * own origin and node:http server) get one delivery per inbox of a new post's Create within
 * 30 s, then of its Update and its Delete: each activity reaches each inbox exactly once though
 * two processes work the queue. Meanwhile a post page on the first instance keeps p99 within
 * PROBE_P99_MS, the bound of every owner action (./owner-site.ts). Its answers from the cache are
 * counted apart too (each change drops the post pages, so a few answers are renders): their p99
 * is printed beside the 10 ms the product aims for under fan-out, and beside the page's p99
 * before anything is sent, since on a shared machine the second moves the first; and beside a
 * plain node:http server sending the same bytes from memory, probed at the same time (the
 * machine's own floor: what no page served by this runtime here can beat). The follower
 * rows are inserted directly (following itself is tested end to end in
 * tests/e2e/federation.spec.ts). Every delivery also passes the wire-format checker. Prints a
 * table of the figures.
 */
const PORTS = [5288, 5289] as const;
const INBOX_PORT = 5290;
const REFERENCE_PORT = 5291;
const INBOXES = 50;
const PER_INBOX = 20;
const FAN_OUT_MS = 30_000;
/** What the product aims for under fan-out: printed, not asserted (a benchmark's figure). */
const PAGE_P99_GOAL_MS = 10;
/** How long the cached page is probed before anything is sent. */
const BASELINE_MS = 5_000;

if (!TEST_DATABASE_URL) {
  console.log("Skipped: federation under load needs PostgreSQL; TEST_DATABASE_URL is not set");
}

type Received = Delivery & { host: string; type: string; id: string; at: number };

describe.skipIf(!TEST_DATABASE_URL)("federation to 1,000 followers on 50 inboxes", () => {
  let database: PostgresDatabase;
  const servers: ServerProcess[] = [];
  const inboxes: Server[] = [];
  const received: Received[] = [];
  const site = `http://127.0.0.1:${PORTS[0]}`;
  const hosts = Array.from({ length: INBOXES }, (_, i) => `127.0.1.${i + 1}`);

  beforeAll(async () => {
    database = await freshPostgres("load_federation");
    const env = () => ({
      DATABASE_URL: database.url,
      SITE_URL: site,
      SEED_DEMO: "true",
      FETCH_ALLOW_PRIVATE: "true",
      PAGE_CACHE_HEADER: "true",
    });
    servers.push(await startServer(PORTS[0], env()));
    servers.push(await startServer(PORTS[1], env()));
    for (const host of hosts) {
      const inbox = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const headers: Record<string, string> = {};
          for (const [key, value] of Object.entries(req.headers)) headers[key] = String(value);
          let json: { type?: string; id?: string } = {};
          try {
            json = JSON.parse(body) as typeof json;
          } catch {
            // Recorded as it is; the checks below find it.
          }
          received.push({
            path: req.url ?? "/",
            headers,
            body,
            host,
            type: String(json.type),
            id: String(json.id),
            at: performance.now(),
          });
          res.writeHead(202);
          res.end();
        });
      });
      inbox.listen(INBOX_PORT, host);
      await new Promise((resolve) => inbox.once("listening", resolve));
      inboxes.push(inbox);
    }
    await database.query(
      `insert into social_followers (actor_url, inbox_url, shared_inbox_url, handle, domain)
       select 'http://127.0.1.' || h || ':${INBOX_PORT}/users/u' || u,
              'http://127.0.1.' || h || ':${INBOX_PORT}/users/u' || u || '/inbox',
              'http://127.0.1.' || h || ':${INBOX_PORT}/inbox',
              '@u' || u || '@127.0.1.' || h, '127.0.1.' || h
       from generate_series(1, $1) h, generate_series(1, $2) u`,
      [INBOXES, PER_INBOX],
    );
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const inbox of inboxes) await new Promise((resolve) => inbox.close(resolve));
    await database?.drop();
  });

  /** Waits until every inbox has an activity of `type`; the time from `since`, in ms. */
  async function allReached(type: string, since: number) {
    const deadline = Date.now() + FAN_OUT_MS + 30_000;
    const reached = () => new Set(received.filter((r) => r.type === type).map((r) => r.host));
    while (reached().size < INBOXES && Date.now() < deadline) await sleep(50);
    const times = received.filter((r) => r.type === type).map((r) => r.at);
    return Math.max(...times) - since;
  }

  it("delivers Create, Update and Delete once per shared inbox, within 30 s, with the cached page fast", async () => {
    const [a] = servers as [ServerProcess, ServerProcess];
    expect(
      (await database.query<{ n: number }>("select count(*)::int as n from social_followers"))[0]!
        .n,
    ).toBe(INBOXES * PER_INBOX);
    const slug = await findPostSlug(a.base);
    // Fedify loads on first use (docs/decisions/038-activitypub-with-fedify.md); a site whose
    // followers followed it has loaded it: an ActivityPub request to each instance does here.
    for (const server of servers) {
      const actor = await fetch(`${server.base}/ap/users/owner`, {
        headers: { accept: "application/activity+json" },
      });
      expect(actor.status).toBe(200);
    }
    for (const path of ["/", `/blog/${slug}`])
      await fetch(`${a.base}${path}`).then((r) => r.text());
    const paths = ["/", `/blog/${slug}`, "/healthz"];
    // The same three paths, so that the reference is asked as often and as many at once.
    const reference = await startReferenceServer(REFERENCE_PORT, a.base, paths);
    const probeA = () => {
      const probe = startProbeBeside({ base: a.base, pid: a.child.pid! }, reference, paths);
      return {
        stop: async () => {
          const { site, plain } = await probe.stop();
          type Three = [PathStats, PathStats, PathStats];
          return { site: site as Three, plain: plain as Three };
        },
      };
    };
    // The same page with nothing being sent, for comparison (the machine may be shared).
    const baseline = probeA();
    await sleep(BASELINE_MS);
    const {
      site: [quiet, quietPost],
      plain: [quietPlain, quietPlainPost],
    } = await baseline.stop();
    const probe = probeA();

    let started = performance.now();
    const [post] = await database.query<{ id: number }>(
      `insert into blog_posts (title, slug, content, status)
       values ('Fan-out', 'fan-out', '<p>To a thousand followers.</p>', 'published') returning id`,
    );
    const createMs = await allReached("Create", started);
    started = performance.now();
    await database.query(`update blog_posts set content = '<p>Edited.</p>' where id = $1`, [
      post!.id,
    ]);
    const updateMs = await allReached("Update", started);
    started = performance.now();
    await database.query(
      `update blog_posts set status = 'trashed', trashed_at = now(), trashed_status = 'published' where id = $1`,
      [post!.id],
    );
    const deleteMs = await allReached("Delete", started);
    // Anything late or doubled would arrive now.
    await sleep(3_000);
    const {
      site: [home, page, health],
      plain: [plain, plainPost, plainHealth],
    } = await probe.stop();
    await reference.stop();

    const perInbox = (type: string) =>
      hosts.map((host) => received.filter((r) => r.host === host && r.type === type).length);
    const counts = Object.fromEntries(
      ["Create", "Update", "Delete"].map((type) => [type, perInbox(type)]),
    );
    const rows = [
      ["activity", "time to last delivery", "deliveries per inbox (min-max)", "distinct ids"],
      ...(
        [
          ["Create", createMs],
          ["Update", updateMs],
          ["Delete", deleteMs],
        ] as const
      ).map(([type, ms]) => [
        type,
        `${(ms / 1000).toFixed(2)} s`,
        `${Math.min(...counts[type]!)}-${Math.max(...counts[type]!)}`,
        String(new Set(received.filter((r) => r.type === type).map((r) => r.id)).size),
      ]),
    ];
    const figure = (stats: { p50: number; p99: number; max: number; samples: number }) =>
      `p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms, max ${stats.max.toFixed(1)} ms over ${stats.samples} samples`;
    console.log(
      `federation: ${INBOXES * PER_INBOX} followers on ${INBOXES} shared inboxes, 2 instances on one PostgreSQL\n` +
        rows.map((r) => r.map((c) => c.padEnd(32)).join("")).join("\n") +
        `\nhome page (cached, not dropped by a post's change): ${figure(home)}; with nothing sent: ${figure(quiet)}` +
        `\npost page: ${figure(page)} (answers ${JSON.stringify(page.cache)}); its answers from the cache: ${figure(page.hits)}; with nothing sent: ${figure(quietPost)}` +
        `\n/healthz: ${figure(health)}; ${received.length} deliveries in all` +
        `\nthe same bytes from plain node:http (reference, same machine, same time): home ${figure(plain)}; with nothing sent: ${figure(quietPlain)}` +
        `\n  post ${figure(plainPost)}; with nothing sent: ${figure(quietPlainPost)}; /healthz ${figure(plainHealth)}`,
    );

    for (const type of ["Create", "Update", "Delete"]) {
      expect(
        counts[type],
        `${type} per inbox: ${JSON.stringify(counts[type])}\n${tail(a, 10)}`,
      ).toEqual(hosts.map(() => 1));
      expect(new Set(received.filter((r) => r.type === type).map((r) => r.id)).size).toBe(1);
    }
    expect(received.length).toBe(3 * INBOXES);
    expect(received.every((r) => r.path === "/inbox")).toBe(true);
    expect(createMs).toBeLessThanOrEqual(FAN_OUT_MS);
    const problems = await Promise.all(
      received.map((r) => checkDelivery(r, r.host, INBOX_PORT, Date.now())),
    );
    expect(problems.flat()).toEqual([]);
    expect([
      ...home.errors,
      ...page.errors,
      ...health.errors,
      ...[plain, plainPost, plainHealth].flatMap((stats) => stats.errors),
    ]).toEqual([]);
    // Each activity's change drops the post pages (related posts show every post), so the probed
    // post is rendered again once per change: those few answers are renders, not cached pages.
    expect(Object.keys(home.cache)).toEqual(["hit"]);
    expect(page.cache["miss"] ?? 0).toBeGreaterThan(0);
    const worst = Math.max(home.p99, page.hits.p99);
    console.log(
      `cached pages' p99 under fan-out ${worst.toFixed(1)} ms (home ${home.p99.toFixed(1)}, post from the cache ${page.hits.p99.toFixed(1)}): ` +
        `${worst <= PAGE_P99_GOAL_MS ? "within" : "over"} the ${PAGE_P99_GOAL_MS} ms goal; ` +
        `plain node:http at the same time ${Math.max(plain.p99, plainPost.p99).toFixed(1)} ms (${Math.max(plain.p99, plainPost.p99) <= PAGE_P99_GOAL_MS ? "within" : "over"} the goal itself); ` +
        `the post page with its ${page.cache["miss"] ?? 0} renders: p99 ${page.p99.toFixed(1)} ms`,
    );
    for (const stats of [home, page, health]) expect(stats.p99).toBeLessThanOrEqual(PROBE_P99_MS);
  }, 300_000);
});
