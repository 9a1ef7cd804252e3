import { describe, expect, it } from "vitest";

import type { Database } from "../database/db.server";
import { SITE_JOBS, startJobWorker } from "./jobs";

describe("the job worker", () => {
  it("refuses two handlers of one kind before it touches the database", () => {
    const run = async () => {};
    expect(() =>
      startJobWorker({} as Database, [
        { kind: "a", run },
        { kind: "a", run },
      ]),
    ).toThrow("Two job handlers share a kind.");
  });

  it("runs the posts' and the media's recurring purges, the cards', the subscribers' mails, the newsletter's one job per post, the federation's per post, per delivery and per inbox activity, the Webmentions' jobs, an import's and the CDN purge's; those someone waits on in the prompt lane", () => {
    expect(SITE_JOBS.map((h) => [h.kind, h.everyMs !== undefined, h.prompt ?? false])).toEqual([
      ["posts.purge-trash", true, false],
      ["posts.prune-revisions", true, false],
      ["media.purge-orphans", true, false],
      ["cards.refresh", false, false],
      ["cards.check", true, false],
      ["subscribers.confirm-mail", false, true],
      ["newsletter.expand", false, false],
      ["social.post-changed", false, true],
      ["social.deliver", false, true],
      ["social.inbox", false, true],
      ["social.webmention-verify", false, false],
      ["social.webmention-send", false, false],
      ["social.webmention-post", false, false],
      ["import.run", false, false],
      ["page-cache.cdn-purge", false, true],
    ]);
  });
});
