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

  it("runs the posts' and the media's recurring purges, the cards', the subscribers' mails, the newsletter's one job per post, the federation's per post, per delivery and per inbox activity, the Webmentions' jobs, an import's and the CDN purge's", () => {
    expect(SITE_JOBS.map((h) => [h.kind, h.everyMs !== undefined])).toEqual([
      ["posts.purge-trash", true],
      ["posts.prune-revisions", true],
      ["media.purge-orphans", true],
      ["cards.refresh", false],
      ["cards.check", true],
      ["subscribers.confirm-mail", false],
      ["newsletter.expand", false],
      ["social.post-changed", false],
      ["social.deliver", false],
      ["social.inbox", false],
      ["social.webmention-verify", false],
      ["social.webmention-send", false],
      ["social.webmention-post", false],
      ["import.run", false],
      ["page-cache.cdn-purge", false],
    ]);
  });
});
