import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";

import { createImageThread } from "./image-thread.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: "#36c" } })
    .png()
    .toBuffer();

const scratch = mkdtempSync(path.join(os.tmpdir(), "image-thread-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the image thread", () => {
  it("starts on the first job, answers it, and stops once idle; the next job starts another", async () => {
    const thread = createImageThread({ idleMs: 200 });
    expect(thread.running).toBe(false);
    const header = await thread.run("header", await png());
    expect(header).toMatchObject({ format: "png", width: 40, height: 30 });
    expect(thread.running).toBe(true);
    await vi.waitFor(() => expect(thread.running).toBe(false), { timeout: 5000, interval: 50 });

    const files = await thread.run("still", await png(), [20, 40], "image/png");
    expect(files.map((f) => `${f.contentType} ${f.width}x${f.height}`)).toEqual([
      "image/webp 20x15",
      "image/webp 40x30",
      "image/png 40x30",
    ]);
    expect(files[0]!.bytes).toBeInstanceOf(Uint8Array);
    await thread.stop();
    expect(thread.running).toBe(false);
  });

  it("keeps running while jobs come closer together than its idle time", async () => {
    // Four jobs 400 ms apart: 1.2 s in all, past the idle time counted from the first answer.
    const thread = createImageThread({ idleMs: 1000 });
    for (let i = 0; i < 4; i++) {
      await sleep(i === 0 ? 0 : 400);
      expect(await thread.run("header", await png())).toMatchObject({ width: 40 });
      expect(thread.running).toBe(true);
    }
    await thread.stop();
  });

  it("rejects a step that fails, and goes on answering the next", async () => {
    const thread = createImageThread();
    const truncated = (await png()).subarray(0, 60);
    await expect(thread.run("still", truncated, [20], "image/png")).rejects.toThrow(/Error/);
    expect(thread.running).toBe(true);
    expect(await thread.run("header", await png())).toMatchObject({ width: 40 });
    await thread.stop();
  });

  it("rejects a job whose arguments cannot be sent, and still stops once idle", async () => {
    const thread = createImageThread({ idleMs: 200 });
    const notBytes = (() => {}) as unknown as Uint8Array;
    await expect(thread.run("header", notBytes)).rejects.toThrow(/could not be cloned/);
    expect(thread.running).toBe(true);
    await vi.waitFor(() => expect(thread.running).toBe(false), { timeout: 5000, interval: 50 });
  });

  it("rejects its jobs when the thread fails, logs why, and starts a new one for the next", async () => {
    const broken = path.join(scratch, "broken-sharp.cjs");
    writeFileSync(broken, 'throw new Error("this sharp does not load");\n');
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const thread = createImageThread({ sharpPath: broken });
      await expect(thread.run("header", await png())).rejects.toThrow("this sharp does not load");
      expect(thread.running).toBe(false);
      await expect(thread.run("header", await png())).rejects.toThrow("this sharp does not load");
      const events = logged.mock.calls.map(([line]) => JSON.parse(String(line)).event);
      expect(events).toEqual(["image_thread_failed", "image_thread_failed"]);
    } finally {
      logged.mockRestore();
    }
  });
});
