// The saver's schedule, with the clock and the network in the test's hands: the network is
// stubbed (answers arrive when the test says), everything else is the real state machine.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AUTOSAVE } from "./autosave-rules";
import type { PostDraft } from "./post-draft";
import { PostSaver } from "./post-saver";

const draft: PostDraft = {
  title: "Title",
  description: "",
  html: "<p>Text</p>",
  empty: false,
  slug: "",
  tagText: "",
  visibility: "now",
  publishAt: "",
  sendToSubscribers: true,
};

describe("the editor's saving schedule", () => {
  let requests: { url: string; answer: () => void }[];
  let revision: number;
  beforeEach(() => {
    vi.useFakeTimers();
    requests = [];
    revision = 1;
    const storage = new Map<string, string>();
    vi.stubGlobal("window", {
      localStorage: {
        getItem: (key: string) => storage.get(key) ?? null,
        setItem: (key: string, value: string) => void storage.set(key, value),
        removeItem: (key: string) => void storage.delete(key),
      },
    });
    vi.stubGlobal("fetch", (url: string) => {
      return new Promise<Response>((resolve) => {
        requests.push({
          url,
          answer: () => {
            revision++;
            const body = {
              ok: true,
              id: 7,
              revision,
              savedAt: new Date().toISOString(),
              applied: true,
            };
            resolve(new Response(JSON.stringify(body), { status: 200 }));
          },
        });
      });
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const saver = () =>
    new PostSaver({ postId: 7, base: 1, pending: false, public: true, read: () => draft });

  it("saves 3 s after typing stops, and every 30 s while it goes on", async () => {
    const s = saver();
    for (let second = 0; second < 65; second++) {
      s.changed();
      await vi.advanceTimersByTimeAsync(1000);
      for (const request of requests.splice(0)) request.answer();
    }
    // Typing for 65 s: at 30 s and 60 s.
    expect(revision).toBe(3);
    await vi.advanceTimersByTimeAsync(AUTOSAVE.idleMs);
    for (const request of requests.splice(0)) request.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(revision).toBe(4);
    expect(s.getSnapshot().state.kind).toBe("saved");
  });

  it("does not send again at every key when each answer arrives after the next key", async () => {
    const s = saver();
    let sent = 0;
    for (let key = 0; key < 600; key++) {
      // An answer held until a key was typed after it was asked for, as on a slow server.
      const waiting = requests.splice(0);
      s.changed();
      for (const request of waiting) request.answer();
      sent += waiting.length;
      await vi.advanceTimersByTimeAsync(170);
    }
    // 600 keys in 102 s: one save each 30 s, not one a key.
    expect(sent + requests.length).toBeLessThanOrEqual(5);
  });
});
