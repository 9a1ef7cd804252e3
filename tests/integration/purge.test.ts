import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { pruneRevisions, purgeTrash } from "../../app/features/posts/purge.server";
import { AUTO_REVISION_DAYS, TRASH_DAYS } from "../../app/features/posts/retention";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { postRevisionBases, postRevisions, type RevisionKind } from "../../database/schema";
import { SITE_JOBS, startJobWorker } from "../../server/jobs";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

const post = (title: string, publish: PostWriteInput["publish"] = { mode: "now" }) => ({
  title,
  description: "",
  content: `<p>${title}</p>`,
  slug: null,
  tags: ["postgres", "queues"],
  publish,
});

/** Days before the database's now. */
const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the posts' purges on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await database.dispose();
    });

    /** Trashes post `id` as if the owner had done it `days` ago. */
    const trashed = (id: number, days: number) =>
      database.db.execute(sql`update blog_posts
        set status = 'trashed', trashed_status = status, trashed_at = ${daysAgo(days)}
        where id = ${id}`);
    const base = async (postId: number) =>
      (
        await database.db
          .insert(postRevisionBases)
          .values({ postId, content: "<p>base</p>" })
          .returning({ id: postRevisionBases.id })
      )[0]!.id;
    /** Adds a revision of `postId` on `baseId`, last saved `days` ago; returns its id. */
    const revision = async (
      postId: number,
      baseId: number,
      kind: RevisionKind,
      days: number,
      applied = true,
    ) =>
      (
        await database.db
          .insert(postRevisions)
          .values({
            postId,
            baseId,
            kind,
            applied,
            createdAt: daysAgo(days),
            savedAt: daysAgo(days),
            title: "t",
            description: "",
            slug: "",
            tags: [],
          })
          .returning({ id: postRevisions.id })
      )[0]!.id;
    /**
     * A post made through createPost (and its saves) with the history those wrote dropped: each
     * test builds the history it means to purge by hand.
     */
    const created = async (title: string, publish?: PostWriteInput["publish"]) => {
      const made = await createPost(database.db, post(title, publish));
      await clearHistory(made.id);
      return made;
    };
    const clearHistory = async (id: number) => {
      await database.db.execute(sql`delete from post_revisions where post_id = ${id}`);
      await database.db.execute(sql`delete from post_revision_bases where post_id = ${id}`);
    };
    /** How many rows of each table belong to post `id`. */
    const leftOf = async (id: number) => {
      const [counts] = await queryRows<Record<string, string | number>>(
        database.db,
        sql`select
          (select count(*) from blog_posts where id = ${id}) as posts,
          (select count(*) from post_tags where post_id = ${id}) as tags,
          (select count(*) from post_slugs where post_id = ${id}) as slugs,
          (select count(*) from post_revisions where post_id = ${id}) as revisions,
          (select count(*) from post_revision_bases where post_id = ${id}) as bases`,
      );
      return Object.fromEntries(Object.entries(counts!).map(([k, v]) => [k, Number(v)]));
    };
    const ids = async (query: ReturnType<typeof sql>) =>
      (await queryRows<{ id: number }>(database.db, query)).map((r) => r.id).sort((a, b) => a - b);

    it(`deletes posts trashed more than ${TRASH_DAYS} days ago with all they hold, and nothing else`, async () => {
      const old = await created("Trashed long ago");
      await updatePost(database.db, old.id, { ...post("Trashed long ago"), slug: "renamed" });
      await clearHistory(old.id);
      const oldBase = await base(old.id);
      await revision(old.id, oldBase, "manual", 40);
      await revision(old.id, oldBase, "auto", 32);
      const recent = await created("Trashed lately");
      await revision(recent.id, await base(recent.id), "auto", 29);
      const live = await created("Still public");
      const draft = await created("A draft", { mode: "draft" });
      await trashed(old.id, TRASH_DAYS + 1);
      await trashed(recent.id, TRASH_DAYS - 1);
      expect(await leftOf(old.id)).toEqual({ posts: 1, tags: 2, slugs: 2, revisions: 2, bases: 1 });

      // Two instances at once: each post is deleted once, and neither fails.
      const runs = await Promise.all([purgeTrash(database.db), purgeTrash(database.db)]);
      expect(runs[0]! + runs[1]!).toBe(1);
      expect(await leftOf(old.id)).toEqual({ posts: 0, tags: 0, slugs: 0, revisions: 0, bases: 0 });
      expect(await leftOf(recent.id)).toMatchObject({ posts: 1, tags: 2, revisions: 1, bases: 1 });
      expect(await ids(sql`select id from blog_posts`)).toEqual([recent.id, live.id, draft.id]);
      expect(await purgeTrash(database.db)).toBe(0);

      // Two days on, the other one's time has come.
      await database.db.execute(
        sql`update blog_posts set trashed_at = trashed_at - make_interval(days => 2)`,
      );
      expect(await purgeTrash(database.db)).toBe(1);
      expect(await ids(sql`select id from blog_posts`)).toEqual([live.id, draft.id]);
    });

    it("runs the purges as the site's recurring jobs from the worker's first start", async () => {
      vi.spyOn(console, "log").mockImplementation(() => {});
      const old = await created("Trashed long ago");
      await revision(old.id, await base(old.id), "manual", 40);
      await trashed(old.id, TRASH_DAYS + 1);
      const live = await created("Still public");
      const liveBase = await base(live.id);
      const pruned = await revision(live.id, liveBase, "auto", AUTO_REVISION_DAYS + 5);
      const head = await revision(live.id, liveBase, "auto", 1);
      const worker = startJobWorker(database.db, SITE_JOBS);
      await worker.settled();
      await worker.stop();
      expect(await ids(sql`select id from blog_posts`)).toEqual([live.id]);
      expect(await ids(sql`select id from post_revisions`)).toEqual([head]);
      expect(pruned).toBeLessThan(head);
      expect(
        await queryRows<{ key: string; attempts: number }>(
          database.db,
          sql`select key, attempts from jobs order by key`,
        ),
      ).toEqual([
        { key: "cards.check", attempts: 0 },
        { key: "media.purge-orphans", attempts: 0 },
        { key: "posts.prune-revisions", attempts: 0 },
        { key: "posts.purge-trash", attempts: 0 },
      ]);
    });

    it(`prunes autosaves older than ${AUTO_REVISION_DAYS} days but heads, applied heads and kept kinds, then unused bases`, async () => {
      const old = AUTO_REVISION_DAYS + 10;
      const young = AUTO_REVISION_DAYS - 1;
      // A post with a long history.
      const a = (await created("A")).id;
      const shared = await base(a);
      const alone = await base(a);
      const current = await base(a);
      const kept = await base(a);
      const aImported = await revision(a, kept, "imported", 100);
      const aRestored = await revision(a, kept, "restored", 90);
      const aOldAuto = await revision(a, shared, "auto", old);
      const aManual = await revision(a, shared, "manual", old);
      const aAlone = await revision(a, alone, "auto", old);
      const aYoung = await revision(a, current, "auto", young);
      const aHead = await revision(a, current, "auto", old - 5);
      // A published post with edits not yet applied: its head, and the version visitors read.
      const b = (await created("B")).id;
      const bGone = await base(b);
      const bLive = await base(b);
      const bOld = await revision(b, bGone, "auto", old + 10);
      const bApplied = await revision(b, bLive, "auto", old + 5);
      const bPending = await revision(b, bLive, "auto", old, false);
      // A post whose one revision is an old autosave.
      const c = (await created("C")).id;
      const cOnly = await revision(c, await base(c), "auto", old);
      // A base no revision ever used.
      const stray = await base(c);

      // Two instances at once: each row is deleted once, and neither fails.
      const runs = await Promise.all([pruneRevisions(database.db), pruneRevisions(database.db)]);
      expect(runs[0]!.revisions + runs[1]!.revisions).toBe(3);
      expect(runs[0]!.bases + runs[1]!.bases).toBe(3);
      const revisions = await ids(sql`select id from post_revisions`);
      for (const gone of [aOldAuto, aAlone, bOld]) expect(revisions).not.toContain(gone);
      expect(revisions).toEqual(
        [aImported, aRestored, aManual, aYoung, aHead, bApplied, bPending, cOnly].sort(
          (x, y) => x - y,
        ),
      );
      const bases = await ids(sql`select id from post_revision_bases`);
      expect(bases).toEqual(expect.arrayContaining([shared, current, kept, bLive]));
      expect(bases).not.toContain(alone);
      expect(bases).not.toContain(bGone);
      expect(bases).not.toContain(stray);
      expect(bases).toHaveLength(5);
      expect(await pruneRevisions(database.db)).toEqual({ revisions: 0, bases: 0 });
    });
  });
}
