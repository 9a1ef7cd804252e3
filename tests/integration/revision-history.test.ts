import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { revisionView } from "../../app/features/posts/revisions/history.server";
import { restoreRevision } from "../../app/features/posts/revisions/restore.server";
import {
  listRevisions,
  readRevision,
  type RevisionSource,
} from "../../app/features/posts/revisions/store.server";
import {
  EditConflictError,
  createPost,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import { action as restoreAction } from "../../app/routes/api.post-revision-restore";
import type { Route as RestoreRoute } from "../../app/routes/+types/api.post-revision-restore";
import { blogPosts, postRevisions, postTags } from "../../database/schema";
import { drivers, routeContext, skipReason, type TestDatabase } from "./databases";

const HERE: RevisionSource = { device: "d1", session: "window-1", agent: "Chrome on Linux" };

const first: PostWriteInput = {
  title: "The fox",
  description: "About a fox",
  content: "<p>The quick brown fox</p>",
  slug: null,
  tags: ["animals"],
  publish: { mode: "now" },
};
const second: PostWriteInput = {
  ...first,
  title: "The red fox",
  content: "<p>The quick red fox</p>",
  tags: ["animals", "colour"],
  publish: { mode: "keep" },
};

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`restoring a revision on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    /** A post saved twice (revisions `older` and `newer`), as a draft or published. */
    async function savedTwice(publish: PostWriteInput["publish"]) {
      const created = await createPost(database.db, { ...first, publish });
      const updated = await updatePost(database.db, created.id, second, {
        baseRevision: created.revision,
      });
      return { id: created.id, older: created.revision, newer: updated!.revision };
    }

    const row = async (id: number) => {
      const [post] = await database.db
        .select({
          title: blogPosts.title,
          description: blogPosts.description,
          content: blogPosts.content,
          updatedAt: blogPosts.updatedAt,
        })
        .from(blogPosts)
        .where(eq(blogPosts.id, id));
      const tags = await database.db
        .select({ tag: postTags.tag })
        .from(postTags)
        .where(eq(postTags.postId, id))
        .orderBy(postTags.position);
      return { ...post!, tags: tags.map((t) => t.tag) };
    };
    const ids = async (id: number) => (await listRevisions(database.db, id)).map((r) => r.id);

    it("adds a revision, kind restored, holding the old version, and deletes none", async () => {
      const { id, older, newer } = await savedTwice({ mode: "now" });
      const restored = await restoreRevision(database.db, id, older, newer, HERE);
      expect(restored).toMatchObject({ id, fields: { title: first.title, tags: ["animals"] } });
      expect(await ids(id)).toEqual([restored!.revision, newer, older]);
      const head = await readRevision(database.db, id, restored!.revision);
      expect(head).toMatchObject({
        kind: "restored",
        content: first.content,
        title: first.title,
        description: first.description,
        // Counted against the version it replaced: "red" went, "brown" came back.
        wordsAdded: 1,
        wordsRemoved: 1,
        ...HERE,
      });
      // The restored version is as it was.
      expect((await readRevision(database.db, id, older))?.content).toBe(first.content);
    });

    it("leaves a published post's row as it is: the restored version waits as unpublished changes", async () => {
      const { id, older, newer } = await savedTwice({ mode: "now" });
      const before = await row(id);
      const restored = await restoreRevision(database.db, id, older, newer, HERE);
      expect(restored?.applied).toBe(false);
      expect(await row(id)).toEqual(before);
      expect(before).toMatchObject({ content: second.content, tags: ["animals", "colour"] });
    });

    it("writes a draft's row at once", async () => {
      const { id, older, newer } = await savedTwice({ mode: "draft" });
      const restored = await restoreRevision(database.db, id, older, newer, HERE);
      expect(restored?.applied).toBe(true);
      expect(await row(id)).toMatchObject({
        title: first.title,
        description: first.description,
        content: first.content,
        tags: ["animals"],
      });
      const [head] = await listRevisions(database.db, id);
      expect(head).toMatchObject({ id: restored!.revision, kind: "restored", applied: true });
    });

    it("refuses a restore from a stale revision and writes nothing", async () => {
      const { id, older, newer } = await savedTwice({ mode: "draft" });
      const before = await row(id);
      const revisionsBefore = await database.db.select().from(postRevisions);
      const refused = restoreRevision(database.db, id, older, older, HERE);
      await expect(refused).rejects.toBeInstanceOf(EditConflictError);
      await expect(refused).rejects.toMatchObject({ head: { id: newer } });
      expect(await row(id)).toEqual(before);
      expect(await database.db.select().from(postRevisions)).toEqual(revisionsBefore);
    });

    it("finds nothing to restore for a missing post or revision", async () => {
      const { id, newer } = await savedTwice({ mode: "now" });
      expect(await restoreRevision(database.db, id + 1, newer, newer, HERE)).toBeNull();
      expect(await restoreRevision(database.db, id, newer + 100, newer, HERE)).toBeNull();
      expect(await ids(id)).toHaveLength(2);
    });

    it("shows a revision with its diff to the head, word by word", async () => {
      const { id, older, newer } = await savedTwice({ mode: "now" });
      const view = await revisionView(database.db, id, older);
      expect(view).toMatchObject({ head: newer, diffWordByWord: true });
      expect(view?.revision).toMatchObject({ id: older, kind: "manual", content: first.content });
      expect(view?.diffHtml).toMatch(/<del><span class="sr-only">[^<]*<\/span>brown<\/del>/);
      expect(view?.diffHtml).toMatch(/<ins><span class="sr-only">[^<]*<\/span>red<\/ins>/);
      expect(view?.titleDiffHtml).toMatch(/<ins><span class="sr-only">[^<]*<\/span>red <\/ins>/);
      expect(await revisionView(database.db, id, newer + 100)).toBeNull();
    });

    it("answers a restore over HTTP: 200 with the fields, 409 with the head when stale, 400 and 404", async () => {
      const { id, older, newer } = await savedTwice({ mode: "now" });
      const restore = (revision: number, body: unknown, type = "application/json") =>
        restoreAction({
          request: new Request(`http://localhost/api/posts/${id}/revisions/${revision}/restore`, {
            method: "POST",
            headers: { "content-type": type, "x-editor-window": "window-2" },
            body: JSON.stringify(body),
          }),
          context: routeContext(database),
          params: { id: String(id), revision: String(revision) },
        } as unknown as RestoreRoute.ActionArgs);
      const statusOf = (answer: unknown) =>
        (answer as { init?: { status?: number } | null }).init?.status ?? 200;
      const dataOf = (answer: unknown) => (answer as { data?: unknown }).data ?? answer;

      const stale = await restore(older, { baseRevision: older });
      expect(statusOf(stale)).toBe(409);
      expect(dataOf(stale)).toMatchObject({
        ok: false,
        conflict: { revision: newer, kind: "manual", where: "another-device" },
      });
      expect(statusOf(await restore(older, { baseRevision: "x" }))).toBe(400);
      expect(statusOf(await restore(older, { baseRevision: newer }, "text/plain"))).toBe(415);
      expect(statusOf(await restore(newer + 100, { baseRevision: newer }))).toBe(404);
      expect(await ids(id)).toHaveLength(2);

      const done = await restore(older, { baseRevision: newer });
      expect(statusOf(done)).toBe(200);
      expect(dataOf(done)).toMatchObject({
        ok: true,
        applied: false,
        fields: { title: first.title, content: first.content },
      });
      const [head] = await listRevisions(database.db, id);
      expect(head).toMatchObject({ kind: "restored", session: "window-2" });
    });
  });
}
