import { describe, expect, it } from "vitest";

import { createJobQueue } from "./queue.server";

/** A job the test finishes by hand, recording when it starts. */
function controllable(name: string, log: string[]) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const job = () => {
    log.push(`start ${name}`);
    return done;
  };
  return {
    job,
    finish: () => finish(name),
    fail: () => fail(new Error(name)),
  };
}

/** Lets every promise callback already due run (a job handed its turn starts in one). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the processing queue", () => {
  it("runs one job at a time, in the order they came", async () => {
    const log: string[] = [];
    const queue = createJobQueue(3);
    const [a, b, c] = [controllable("a", log), controllable("b", log), controllable("c", log)];
    const results = [a, b, c].map(({ job }) => queue.run(job));
    await settle();
    expect(log).toEqual(["start a"]);
    expect([queue.busy, queue.waiting]).toEqual([true, 2]);

    // Finishing a later job first changes nothing: b has not started, so c waits behind it.
    c.finish();
    await settle();
    expect(log).toEqual(["start a"]);
    a.finish();
    await settle();
    expect(log).toEqual(["start a", "start b"]);
    expect(queue.waiting).toBe(1);
    b.finish();
    await settle();
    expect(log).toEqual(["start a", "start b", "start c"]);

    expect(await Promise.all(results)).toEqual([
      { ok: true, value: "a" },
      { ok: true, value: "b" },
      { ok: true, value: "c" },
    ]);
    expect([queue.busy, queue.waiting]).toEqual([false, 0]);
  });

  it("answers busy at once past the places, and takes jobs again once one is free", async () => {
    const log: string[] = [];
    const queue = createJobQueue(2);
    const [a, b, c] = [controllable("a", log), controllable("b", log), controllable("c", log)];
    const accepted = [a, b, c].map(({ job }) => queue.run(job));
    const refused = controllable("d", log);
    expect(await queue.run(refused.job)).toEqual({ ok: false, busy: true });
    expect(log).toEqual(["start a"]);

    a.finish();
    await settle();
    // a's end freed a place: e waits behind c.
    const e = controllable("e", log);
    const later = queue.run(e.job);
    expect(queue.waiting).toBe(2);
    for (const job of [b, c, e]) {
      job.finish();
      await settle();
    }
    expect(log).toEqual(["start a", "start b", "start c", "start e"]);
    expect((await Promise.all([...accepted, later])).map((r) => r.ok)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it("goes on with the next job when one fails", async () => {
    const log: string[] = [];
    const queue = createJobQueue(1);
    const a = controllable("a", log);
    const b = controllable("b", log);
    const first = queue.run(a.job);
    const second = queue.run(b.job);
    a.fail();
    await expect(first).rejects.toThrow("a");
    await settle();
    expect(log).toEqual(["start a", "start b"]);
    b.finish();
    expect(await second).toEqual({ ok: true, value: "b" });
    // A job that throws before it returns a promise frees its turn too.
    const thrown = queue.run(() => {
      throw new Error("at once");
    });
    await expect(thrown).rejects.toThrow("at once");
    expect(queue.busy).toBe(false);
  });

  it("runs a job at once when the queue is idle", async () => {
    const queue = createJobQueue(0);
    expect(await queue.run(async () => 1)).toEqual({ ok: true, value: 1 });
    // No place to wait: a second job while one runs is refused.
    const log: string[] = [];
    const a = controllable("a", log);
    const running = queue.run(a.job);
    expect(await queue.run(async () => 2)).toEqual({ ok: false, busy: true });
    a.finish();
    expect(await running).toEqual({ ok: true, value: "a" });
    expect(await queue.run(async () => 3)).toEqual({ ok: true, value: 3 });
  });
});
