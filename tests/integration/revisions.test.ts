import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { autosavePost, discardChanges } from "../../app/features/posts/autosave.server";
import { openEditablePost } from "../../app/features/posts/editor/editable-post.server";
import { getPost, listPostsPage } from "../../app/features/posts/read.server";
import { restoreRevision } from "../../app/features/posts/revisions/restore.server";
import {
  headRevision,
  listRevisions,
  readRevision,
} from "../../app/features/posts/revisions/store.server";
import type { AutosaveInput } from "../../app/features/posts/schema";
import {
  createPost,
  EditConflictError,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import { drivers, queryRows, skipReason, TEST_DATABASE_URL, type TestDatabase } from "./databases";

const here = { device: "device-a", session: "window-a", agent: "Chrome on Linux" };
const there = { device: "device-b", session: "window-b", agent: "Firefox on macOS" };

const post: PostWriteInput = {
  title: "A post",
  description: "",
  content: "<p>The first text.</p>",
  slug: null,
  tags: ["one"],
  publish: { mode: "now" },
};

const autosave = (
  fields: Partial<AutosaveInput> & { baseRevision: number | null },
): AutosaveInput => ({
  title: "A post",
  description: "",
  content: "<p>The first text.</p>",
  slug: "",
  tags: "one",
  publish: { mode: "now" },
  ...fields,
});

/** Moves every revision of a post back in time, as if written `minutes` ago. */
const age = (db: TestDatabase["db"], minutes: number) =>
  db.execute(
    sql`update post_revisions set created_at = created_at - make_interval(mins => ${minutes}), saved_at = saved_at - make_interval(mins => ${minutes})`,
  );

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`revisions on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("records every manual save as a revision, with the words it added and removed", async () => {
      const { db } = database;
      const created = await createPost(db, post, { source: here });
      const updated = await updatePost(
        db,
        created.id,
        { ...post, content: "<p>The second text, longer.</p>", publish: { mode: "keep" } },
        { baseRevision: created.revision, source: here },
      );
      const revisions = await listRevisions(db, created.id);
      expect(revisions.map((r) => [r.id, r.kind, r.applied])).toEqual([
        [updated!.revision, "manual", true],
        [created.revision, "manual", true],
      ]);
      expect(revisions[0]).toMatchObject({
        wordsAdded: 3,
        wordsRemoved: 2,
        agent: "Chrome on Linux",
      });
      expect((await readRevision(db, created.id, created.revision))!.content).toBe(
        "<p>The first text.</p>",
      );
    });

    it("refuses a save that began before another one, and writes nothing", async () => {
      const { db } = database;
      const created = await createPost(db, post, { source: here });
      const theirs = await autosavePost(
        db,
        created.id,
        autosave({ baseRevision: created.revision, content: "<p>Theirs.</p>" }),
        there,
      );
      const before = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from post_revisions`,
      );
      await expect(
        updatePost(
          db,
          created.id,
          { ...post, content: "<p>Mine.</p>" },
          {
            baseRevision: created.revision,
            source: here,
          },
        ),
      ).rejects.toThrow(EditConflictError);
      await expect(
        autosavePost(db, created.id, autosave({ baseRevision: created.revision }), here),
      ).rejects.toSatisfy(
        (error) => error instanceof EditConflictError && error.head.id === theirs!.revision,
      );
      expect((await getPost(db, created.id))!.content).toBe("<p>The first text.</p>");
      expect(await queryRows(db, sql`select count(*)::int as n from post_revisions`)).toEqual(
        before,
      );
      // Keep mine: the same save, on top of theirs.
      const mine = await updatePost(
        db,
        created.id,
        { ...post, content: "<p>Mine.</p>" },
        {
          baseRevision: theirs!.revision,
          source: here,
        },
      );
      expect((await getPost(db, created.id))!.content).toBe("<p>Mine.</p>");
      expect((await headRevision(db, created.id))!.id).toBe(mine!.revision);
    });

    it("keeps a published post's autosaves as pending changes, out of every public read", async () => {
      const { db } = database;
      const created = await createPost(db, post, { source: here });
      const saved = await autosavePost(
        db,
        created.id,
        autosave({ baseRevision: created.revision, content: "<p>Secret words.</p>" }),
        here,
      );
      expect(saved).toMatchObject({ applied: false, status: "published" });
      expect((await getPost(db, created.id))!.content).toBe("<p>The first text.</p>");
      expect((await listPostsPage(db, { page: 1, search: "secret" })).total).toBe(0);
      const opened = await openEditablePost(db, (await getPost(db, created.id))!);
      expect(opened).toMatchObject({ pending: true, revision: saved!.revision });
      expect(opened.content).toBe("<p>Secret words.</p>");
      // Discard: the live text is the head again; the autosave stays in the history.
      const discarded = await discardChanges(db, created.id, saved!.revision, here);
      const reopened = await openEditablePost(db, (await getPost(db, created.id))!);
      expect(reopened).toMatchObject({ pending: false, revision: discarded!.revision });
      expect(reopened.content).toBe("<p>The first text.</p>");
      expect((await listRevisions(db, created.id)).map((r) => r.kind)).toEqual([
        "restored",
        "auto",
        "manual",
      ]);
    });

    it("opens a published post at a restored version it waits for, as unpublished changes", async () => {
      const { db } = database;
      const created = await createPost(db, post, { source: here });
      const updated = await updatePost(
        db,
        created.id,
        { ...post, content: "<p>The second text.</p>", publish: { mode: "keep" } },
        { baseRevision: created.revision, source: here },
      );
      const restored = await restoreRevision(
        db,
        created.id,
        created.revision,
        updated!.revision,
        here,
      );
      expect(restored).toMatchObject({ applied: false });
      const opened = await openEditablePost(db, (await getPost(db, created.id))!);
      expect(opened).toMatchObject({ pending: true, revision: restored!.revision });
      expect(opened.content).toBe("<p>The first text.</p>");
      expect((await getPost(db, created.id))!.content).toBe("<p>The second text.</p>");
    });

    it("autosaves a draft into its row, creating it on the first one, its URL following its title", async () => {
      const { db } = database;
      const first = await autosavePost(
        db,
        null,
        autosave({ baseRevision: null, title: "Hel", content: "<p></p>", tags: "" }),
        here,
      );
      expect(first).toMatchObject({ applied: true, status: "draft" });
      expect((await getPost(db, first!.id))!.slug).toBe("hel");
      const second = await autosavePost(
        db,
        first!.id,
        autosave({ baseRevision: first!.revision, title: "Hello world", tags: "a, b" }),
        here,
      );
      const row = (await getPost(db, first!.id))!;
      expect(row).toMatchObject({
        title: "Hello world",
        slug: "hello-world",
        tags: ["a", "b"],
        status: "draft",
      });
      expect(row.content).toBe("<p>The first text.</p>");
      // The URL the draft had for a moment is not kept: nobody saw it.
      expect(
        await queryRows(
          db,
          sql`select slug from post_slugs where post_id = ${first!.id} order by slug`,
        ),
      ).toEqual([{ slug: "hello-world" }]);
      // Autosaves within 10 minutes of the first are one revision.
      expect((await listRevisions(db, first!.id)).length).toBe(1);
      expect((await headRevision(db, first!.id))!.id).toBe(second!.revision);
    });

    it("coalesces autosaves for 10 minutes, then starts a new revision", async () => {
      const { db } = database;
      const created = await createPost(db, post, { source: here });
      let base = created.revision;
      for (const word of ["one", "two", "three"]) {
        base = (await autosavePost(
          db,
          created.id,
          autosave({ baseRevision: base, content: `<p>${word}</p>` }),
          here,
        ))!.revision;
      }
      expect((await listRevisions(db, created.id)).map((r) => r.kind)).toEqual(["auto", "manual"]);
      await age(db, 11);
      await autosavePost(
        db,
        created.id,
        autosave({ baseRevision: base, content: "<p>four</p>" }),
        here,
      );
      const revisions = await listRevisions(db, created.id);
      expect(revisions.map((r) => r.kind)).toEqual(["auto", "auto", "manual"]);
      expect((await readRevision(db, created.id, revisions[1]!.id))!.content).toBe("<p>three</p>");
      expect(revisions[1]).toMatchObject({ wordsAdded: 1, wordsRemoved: 3 });
    });

    it("gives a post written before revisions its first one from its row before changing it", async () => {
      const { db } = database;
      await db.execute(
        sql`insert into blog_posts (title, content, status) values ('Old', '<p>Old text.</p>', 'published')`,
      );
      const [{ id }] = (await queryRows<{ id: number }>(db, sql`select id from blog_posts`)) as [
        { id: number },
      ];
      expect(await headRevision(db, id)).toBeNull();
      await updatePost(
        db,
        id,
        { ...post, title: "Old", content: "<p>New text.</p>" },
        {
          baseRevision: null,
          source: here,
        },
      );
      const revisions = await listRevisions(db, id);
      expect(revisions.length).toBe(2);
      expect((await readRevision(db, id, revisions[1]!.id))!.content).toBe("<p>Old text.</p>");
    });

    // Measured once: on PostgreSQL (production's) when there is one, else on PGlite.
    const measured = driver.name === "postgres" || !TEST_DATABASE_URL;
    if (measured) {
      it("stores 500 revisions of a 5,000-word post in under 5 MB", async () => {
        const { db } = database;
        const words = Array.from({ length: 5000 }, (_, i) => `word${i % 977}`);
        const html = () =>
          `<p>${words.slice(0, 2500).join(" ")}</p><p>${words.slice(2500).join(" ")}</p>`;
        const created = await createPost(db, { ...post, content: html() }, { source: here });
        let base = created.revision;
        for (let i = 0; i < 499; i++) {
          words[(i * 613) % words.length] = `edit${i}`;
          words.splice((i * 331) % words.length, 0, `added${i}`);
          base = (await updatePost(
            db,
            created.id,
            { ...post, content: html(), publish: { mode: "keep" } },
            {
              baseRevision: base,
              source: here,
            },
          ))!.revision;
        }
        const [{ bytes }] = (await queryRows<{ bytes: string }>(
          db,
          sql`select pg_total_relation_size('post_revisions') + pg_total_relation_size('post_revision_bases') as bytes`,
        )) as [{ bytes: string }];
        console.log(
          `500 revisions of a 5,000-word post (${html().length} characters): ${bytes} bytes`,
        );
        expect((await listRevisions(db, created.id)).length).toBe(500);
        expect(Number(bytes)).toBeLessThan(5 * 1024 * 1024);
        // Every one of them reads back whole.
        const oldest = (await listRevisions(db, created.id)).at(-1)!;
        expect((await readRevision(db, created.id, oldest.id))!.content).toContain("word0 word1");
      }, 120_000);
    }
  });
}
