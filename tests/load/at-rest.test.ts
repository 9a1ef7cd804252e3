import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { AT_REST_COLLECTION } from "../../app/lib/limits";
import { sleep, startServer, tail, type ServerProcess } from "./harness";

/**
 * The production server gives back the garbage of its start once it comes to rest
 * (server/at-rest.ts): on a new data directory the migrations, the seed and the first share
 * cards left tens of MB that V8 kept until traffic came.
 */
const PORT = 3251;
const EVENT = "memory_collected_at_rest";
const MB = 1024 * 1024;

let dir = "";
let server: ServerProcess;

const residentBytes = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) *
  1024;
const events = () =>
  server
    .output()
    .split("\n")
    .filter((line) => line.includes(`"event":"${EVENT}"`))
    .map((line) => JSON.parse(line) as { heldMB: number; afterMB: number; ms: number });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-at-rest-"));
  server = await startServer(PORT, { DATA_DIR: path.join(dir, "data"), SEED_DEMO: "true" });
});

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("gives the memory its start left behind back to the system once it is at rest", async () => {
  // Resident memory up to the collection, read every 100 ms.
  let before = residentBytes();
  const deadline = Date.now() + 30_000;
  while (events().length === 0) {
    if (Date.now() > deadline) {
      throw new Error(`no ${EVENT} within 30 s of the start:\n${tail(server)}`);
    }
    before = Math.max(before, residentBytes());
    await sleep(100);
  }
  const event = events()[0]!;
  expect(event.afterMB, JSON.stringify(event)).toBeLessThan(event.heldMB);
  await sleep(500);
  const after = residentBytes();
  expect(
    before - after,
    `resident ${Math.round(before / MB)} MB before, ${Math.round(after / MB)} MB after`,
  ).toBeGreaterThan(AT_REST_COLLECTION.growthBytes);

  // Once: a server left alone has nothing more to give back.
  await sleep(AT_REST_COLLECTION.checkEveryMs * 3);
  expect(events()).toHaveLength(1);
  expect((await fetch(`${server.base}/`)).status).toBe(200);
});
