// The trash (app/features/posts/trash.server.ts) on both databases: Delete keeps a post whole but
// out of everything visitors see, Restore gives it back as it was, Delete forever removes it and
// nothing else, and its URLs stay its own until then.
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  allPostDates,
  findPostByPath,
  getPost,
  listOwnerPosts,
  listPostsPage,
  listRecentPosts,
  listTagPage,
  listTags,
  relatedPosts,
} from "../../app/features/posts/read.server";
import {
  countTrash,
  deleteForever,
  findTrashed,
  listTrash,
  restorePost,
  trashPost,
  wasPublicBeforeTrash,
} from "../../app/features/posts/trash.server";
import {
  createPost,
  publishDuePosts,
  SlugTakenError,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import type { Route as OwnerListRoute } from "../../app/routes/+types/admin.posts";
import type { Route as TrashRoute } from "../../app/routes/+types/admin.posts.trash";
import type { Route as EditRoute } from "../../app/routes/+types/blog.edit";
import type { Route as PostRoute } from "../../app/routes/+types/blog.post";
import { loader as ownerListLoader } from "../../app/routes/admin.posts";
import { action as trashAction } from "../../app/routes/admin.posts.trash";
import { loader as editLoader } from "../../app/routes/blog.edit";
import { loader as postLoader } from "../../app/routes/blog.post";
import {
  drivers,
  freshPglite,
  queryRows,
  routeContext,
  skipReason,
  type TestDatabase,
} from "./databases";

const base: PostWriteInput = {
  title: "A post",
  description: "",
  content: "<p>Body</p>",
  slug: null,
  tags: null,
  publish: { mode: "now" },
};
const write = (fields: Partial<PostWriteInput>): PostWriteInput => ({ ...base, ...fields });
const titles = (page: { posts: { title: string }[] }) => page.posts.map((p) => p.title);
const HOUR = 3_600_000;

type Row = {
  status: string;
  trashed_status: string | null;
  trashed_at: Date | string | null;
  published_at: string | null;
  slug: string;
};

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`the trash on ${driver.name}`, () => {
    let database: TestDatabase;
    let db: TestDatabase["db"];
    beforeEach(async () => {
      database = await driver.fresh();
      db = database.db;
    });
    afterEach(async () => {
      await database.dispose();
    });

    const row = async (id: number) =>
      (
        await queryRows<Row>(
          db,
          sql`select status, trashed_status, trashed_at, published_at::text as published_at, slug
              from blog_posts where id = ${id}`,
        )
      )[0];
    const tagsOf = async (id: number) =>
      (
        await queryRows<{ tag: string }>(
          db,
          sql`select tag from post_tags where post_id = ${id} order by position`,
        )
      ).map((r) => r.tag);
    const slugsOf = async (id: number) =>
      (
        await queryRows<{ slug: string }>(
          db,
          sql`select slug from post_slugs where post_id = ${id} order by slug`,
        )
      ).map((r) => r.slug);
    /** Two revisions of a post on one base, as the revision history stores them. */
    const addRevisions = async (id: number) => {
      const [baseRow] = await queryRows<{ id: number }>(
        db,
        sql`insert into post_revision_bases (post_id, content) values (${id}, '<p>Body</p>') returning id`,
      );
      for (const kind of ["auto", "manual"]) {
        await db.execute(sql`
          insert into post_revisions (post_id, kind, applied, title, description, slug, tags, base_id)
          values (${id}, ${kind}, true, 'A post', '', 'a-post', '[]'::jsonb, ${baseRow!.id})`);
      }
    };
    const revisionCount = async (id: number) =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select (select count(*) from post_revisions where post_id = ${id})::int
                   + (select count(*) from post_revision_bases where post_id = ${id})::int as n`,
        )
      )[0]!.n;

    it("Delete keeps the post with the state it had, once; a missing post is no-op false", async () => {
      const published = await createPost(db, write({ title: "Published" }));
      const draft = await createPost(db, write({ title: "Draft", publish: { mode: "draft" } }));
      const scheduled = await createPost(
        db,
        write({ title: "Scheduled", publish: { mode: "at", at: new Date(Date.now() + HOUR) } }),
      );
      for (const post of [published, draft, scheduled]) {
        const before = (await row(post.id))!;
        expect(await trashPost(db, post.id)).toBe(true);
        const after = (await row(post.id))!;
        expect(after).toMatchObject({
          status: "trashed",
          trashed_status: post.status,
          published_at: before.published_at,
          slug: before.slug,
        });
        expect(after.trashed_at).not.toBeNull();
        // Trashing it again changes nothing, not even when it went.
        expect(await trashPost(db, post.id)).toBe(false);
        expect(await row(post.id)).toEqual(after);
      }
      expect(await trashPost(db, 99_999)).toBe(false);
      expect(await countTrash(db)).toBe(3);
      // The database refuses a trashed row without the time it went.
      await expect(
        db.execute(sql`update blog_posts set trashed_at = null where id = ${draft.id}`),
      ).rejects.toThrow();
    });

    it("a trashed post leaves every list, count, search, tag, feed, sitemap and related list at once", async () => {
      const tags = ["postgres", "sql"];
      const kept = await createPost(db, write({ title: "Kept words", tags }));
      const doomed = await createPost(db, write({ title: "Doomed words", tags }));
      const slugsBefore = async () => {
        const slugs: string[] = [];
        for await (const entry of allPostDates(db)) slugs.push(entry.slug);
        return slugs;
      };
      expect(titles(await listPostsPage(db, { page: 1, search: "" }))).toContain("Doomed words");
      expect(await slugsBefore()).toContain(doomed.slug);

      await trashPost(db, doomed.id);
      const list = await listPostsPage(db, { page: 1, search: "" });
      expect(titles(list)).toEqual(["Kept words"]);
      expect(list.total).toBe(1);
      expect(titles(await listPostsPage(db, { page: 1, search: "doomed" }))).toEqual([]);
      expect(titles(await listPostsPage(db, { page: 1, search: "words" }))).toEqual(["Kept words"]);
      expect(titles(await listTagPage(db, { tag: "postgres", page: 1 }))).toEqual(["Kept words"]);
      expect(await listTags(db)).toEqual([
        { tag: "postgres", count: 1 },
        { tag: "sql", count: 1 },
      ]);
      expect((await listRecentPosts(db, 20)).map((p) => p.title)).toEqual(["Kept words"]);
      expect((await listRecentPosts(db, 20, "sql")).map((p) => p.title)).toEqual(["Kept words"]);
      expect(await slugsBefore()).toEqual([kept.slug]);
      expect((await relatedPosts(db, kept.id)).map((p) => p.title)).toEqual([]);
      // Nor does the owner's list or the editor find it, nor any of its URLs lead to it.
      expect((await listOwnerPosts(db, { page: 1, pageSize: 20 })).posts.map((p) => p.id)).toEqual([
        kept.id,
      ]);
      expect(await getPost(db, doomed.id)).toBeNull();
      for (const segment of [doomed.slug, String(doomed.id), doomed.slug.toUpperCase()]) {
        expect(await findPostByPath(db, segment)).toBeNull();
      }
    });

    it("Restore gives the post back whole: slug and old slugs, tags, state, date and revisions", async () => {
      const post = await createPost(
        db,
        write({ title: "First name", tags: ["b", "a", "c"], publish: { mode: "now" } }),
      );
      await updatePost(
        db,
        post.id,
        write({ title: "First name", slug: "second-name", publish: { mode: "keep" } }),
      );
      await addRevisions(post.id);
      const before = (await row(post.id))!;
      const revisions = await revisionCount(post.id);
      // Its two saves' revisions on one base (the first save, the rename), and the three rows
      // addRevisions writes.
      expect(revisions).toBe(6);

      await trashPost(db, post.id);
      expect(await restorePost(db, post.id)).toEqual({
        id: post.id,
        title: "First name",
        slug: "second-name",
        status: "published",
      });
      expect(await row(post.id)).toEqual({
        ...before,
        trashed_at: null,
        trashed_status: null,
      });
      expect(await tagsOf(post.id)).toEqual(["b", "a", "c"]);
      expect(await slugsOf(post.id)).toEqual(["first-name", "second-name"]);
      expect(await revisionCount(post.id)).toBe(revisions);
      expect(await listTags(db)).toHaveLength(3);
      expect(titles(await listTagPage(db, { tag: "a", page: 1 }))).toEqual(["First name"]);
      expect((await listPostsPage(db, { page: 1, search: "" })).total).toBe(1);
      expect(await findPostByPath(db, "first-name")).toMatchObject({
        moved: true,
        post: { slug: "second-name" },
      });
      // Restoring what is not in the trash does nothing.
      expect(await restorePost(db, post.id)).toBeNull();
      expect(await restorePost(db, 99_999)).toBeNull();
    });

    it("Restore brings back a draft as a draft, never published", async () => {
      const draft = await createPost(
        db,
        write({ title: "Still a draft", publish: { mode: "draft" } }),
      );
      await trashPost(db, draft.id);
      expect((await restorePost(db, draft.id))?.status).toBe("draft");
      expect((await row(draft.id))?.published_at).toBeNull();
      expect((await listPostsPage(db, { page: 1, search: "" })).total).toBe(0);
      expect((await findPostByPath(db, draft.slug))?.post.status).toBe("draft");
    });

    it("a scheduled post restored before its time waits for it; after it, is published at that time", async () => {
      const later = new Date(Date.now() + HOUR);
      const waiting = await createPost(
        db,
        write({ title: "Waits", publish: { mode: "at", at: later } }),
      );
      const passed = await createPost(
        db,
        write({ title: "Passed", tags: ["t"], publish: { mode: "at", at: later } }),
      );
      await trashPost(db, waiting.id);
      await trashPost(db, passed.id);
      // While in the trash its time comes: the publisher leaves trashed posts alone.
      await db.execute(
        sql`update blog_posts set published_at = now() - interval '1 minute' where id = ${passed.id}`,
      );
      expect(await publishDuePosts(db)).toEqual([]);
      const due = (await row(passed.id))!.published_at;

      expect((await restorePost(db, waiting.id))?.status).toBe("scheduled");
      expect(await restorePost(db, passed.id)).toMatchObject({ status: "published" });
      expect((await row(passed.id))?.published_at).toBe(due);
      expect(titles(await listPostsPage(db, { page: 1, search: "" }))).toEqual(["Passed"]);
      expect(titles(await listTagPage(db, { tag: "t", page: 1 }))).toEqual(["Passed"]);
      expect((await row(waiting.id))?.status).toBe("scheduled");
    });

    it("a trashed post's slugs stay its own: no new or other post may take them", async () => {
      const post = await createPost(db, write({ title: "Reserved" }));
      await updatePost(db, post.id, write({ slug: "reserved-now", publish: { mode: "keep" } }));
      const other = await createPost(db, write({ title: "Other" }));
      await trashPost(db, post.id);
      for (const slug of ["reserved", "reserved-now"]) {
        await expect(createPost(db, write({ slug }))).rejects.toThrow(SlugTakenError);
        await expect(updatePost(db, other.id, write({ slug }))).rejects.toThrow(SlugTakenError);
      }
      // A new post titled the same gets a slug of its own.
      expect((await createPost(db, write({ title: "Reserved" }))).slug).toBe("reserved-2");
      // The trashed post cannot be edited; Restore is the way back.
      expect(await updatePost(db, post.id, write({ title: "Edited" }))).toBeNull();
      expect((await restorePost(db, post.id))?.slug).toBe("reserved-now");
    });

    it("Delete forever removes only that trashed post, its slugs, tags and revisions", async () => {
      const doomed = await createPost(db, write({ title: "Doomed", tags: ["x", "y"] }));
      const neighbour = await createPost(db, write({ title: "Neighbour", tags: ["x"] }));
      const live = await createPost(db, write({ title: "Live" }));
      await addRevisions(doomed.id);
      await addRevisions(neighbour.id);
      const neighbourRevisions = await revisionCount(neighbour.id);
      // Its save's revision and base, and the three rows addRevisions writes.
      expect(neighbourRevisions).toBe(5);
      await trashPost(db, neighbour.id);

      // Only from the trash: a live post stays whatever is asked.
      expect(await deleteForever(db, live.id)).toBeNull();
      expect(await getPost(db, live.id)).not.toBeNull();

      await trashPost(db, doomed.id);
      expect(await deleteForever(db, doomed.id)).toEqual({ id: doomed.id, title: "Doomed" });
      expect(await row(doomed.id)).toBeUndefined();
      expect(await tagsOf(doomed.id)).toEqual([]);
      expect(await slugsOf(doomed.id)).toEqual([]);
      expect(await revisionCount(doomed.id)).toBe(0);
      expect(await deleteForever(db, doomed.id)).toBeNull();

      // The others are as they were: the trashed neighbour still restorable, whole.
      expect(await countTrash(db)).toBe(1);
      expect(await revisionCount(neighbour.id)).toBe(neighbourRevisions);
      expect(await tagsOf(neighbour.id)).toEqual(["x"]);
      expect((await restorePost(db, neighbour.id))?.slug).toBe("neighbour");
      expect(titles(await listPostsPage(db, { page: 1, search: "" })).sort()).toEqual([
        "Live",
        "Neighbour",
      ]);
      // Its slug is free again.
      expect((await createPost(db, write({ title: "Doomed" }))).slug).toBe("doomed");
    });

    it("lists the trash newest first, with the state each had and the days left before the purge", async () => {
      const ids: number[] = [];
      for (const [title, publish] of [
        ["Old draft", { mode: "draft" }],
        ["Scheduled one", { mode: "at", at: new Date(Date.now() + HOUR) }],
        ["Public one", { mode: "now" }],
      ] as const) {
        const { id } = await createPost(db, write({ title, publish }));
        await trashPost(db, id);
        ids.push(id);
      }
      await createPost(db, write({ title: "Not trashed" }));
      // Deleted 29½ days ago, 40 days ago, and just now.
      await db.execute(
        sql`update blog_posts set trashed_at = now() - interval '29 days 12 hours' where id = ${ids[0]}`,
      );
      await db.execute(
        sql`update blog_posts set trashed_at = now() - interval '40 days' where id = ${ids[1]}`,
      );
      const trash = await listTrash(db, { page: 1, pageSize: 20 });
      expect(trash).toMatchObject({ total: 3, pageCount: 1 });
      expect(
        trash.posts.map(({ title, status, purgeInDays, slug }) => ({
          title,
          status,
          purgeInDays,
          slug,
        })),
      ).toEqual([
        { title: "Public one", status: "published", purgeInDays: 30, slug: "public-one" },
        { title: "Old draft", status: "draft", purgeInDays: 1, slug: "old-draft" },
        { title: "Scheduled one", status: "scheduled", purgeInDays: 0, slug: "scheduled-one" },
      ]);
      expect(trash.posts[0]!.trashedAt).toBeInstanceOf(Date);
      const page2 = await listTrash(db, { page: 2, pageSize: 2 });
      expect(page2).toMatchObject({ total: 3, pageCount: 2 });
      expect(page2.posts.map((p) => p.title)).toEqual(["Scheduled one"]);
      expect(await findTrashed(db, ids[2]!)).toEqual({ id: ids[2], title: "Public one" });
      expect(await findTrashed(db, 99_999)).toBeNull();
    });

    it("names the URLs of a post that was public before the trash, and no other", async () => {
      const gone = await createPost(db, write({ title: "Gone post" }));
      await updatePost(db, gone.id, write({ slug: "gone-now", publish: { mode: "keep" } }));
      const draft = await createPost(
        db,
        write({ title: "Secret draft", publish: { mode: "draft" } }),
      );
      const live = await createPost(db, write({ title: "Live post" }));
      await trashPost(db, gone.id);
      await trashPost(db, draft.id);
      for (const segment of ["gone-now", "gone-post", "GONE-NOW", String(gone.id)]) {
        expect(await wasPublicBeforeTrash(db, segment), segment).toBe(true);
      }
      // A draft was never seen: its URL names nothing, as if it never was.
      for (const segment of [draft.slug, String(draft.id), live.slug, "nothing", "!!", "0"]) {
        expect(await wasPublicBeforeTrash(db, segment), segment).toBe(false);
      }
    });
  });
}

/** React Router's `data()` results carry the status in `init`, and the value in `data`. */
function answered(result: unknown): { status: number; value: unknown } {
  const { init, data } = result as { init?: { status?: number } | null; data?: unknown };
  return init === undefined
    ? { status: 200, value: result }
    : { status: init?.status ?? 200, value: data };
}

describe("the trash's pages and the post's URL", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshPglite();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const read = async (segment: string) => {
    try {
      return answered(
        await postLoader({
          request: new Request(`http://localhost/blog/${segment}`),
          context: routeContext(database),
          params: { slug: segment },
        } as unknown as PostRoute.LoaderArgs),
      );
    } catch (thrown) {
      return {
        status: (thrown as Response).status,
        value: (thrown as Response).headers.get("location"),
      };
    }
  };
  const edit = async (id: number) =>
    answered(
      await editLoader({
        request: new Request(`http://localhost/blog/${id}/edit`),
        context: routeContext(database),
        params: { id: String(id) },
      } as unknown as EditRoute.LoaderArgs),
    );
  const post = async (fields: Record<string, string>) =>
    answered(
      await trashAction({
        request: new Request("http://localhost/admin/posts/trash", {
          method: "POST",
          body: new URLSearchParams(fields),
        }),
        context: routeContext(database),
        params: {},
      } as unknown as TrashRoute.ActionArgs),
    );
  const owners = async (query: string) =>
    (await ownerListLoader({
      request: new Request(`http://localhost/admin/posts${query}`),
      context: routeContext(database),
      params: {},
    } as unknown as OwnerListRoute.LoaderArgs)) as { trashCount: number; trashed: unknown };

  it("a trashed public post's URLs answer 410, not a redirect; a trashed draft's 404; Restore brings it back there", async () => {
    const db = database.db;
    const gone = await createPost(db, write({ title: "Was public" }));
    await updatePost(
      db,
      gone.id,
      write({ title: "Was public", slug: "now-here", publish: { mode: "keep" } }),
    );
    const draft = await createPost(db, write({ title: "Draft", publish: { mode: "draft" } }));
    expect((await read("was-public")).status).toBe(301);
    expect((await read("now-here")).status).toBe(200);

    await trashPost(db, gone.id);
    await trashPost(db, draft.id);
    for (const segment of ["now-here", "was-public", String(gone.id)]) {
      expect(await read(segment), segment).toEqual({
        status: 410,
        value: { post: null, related: [], responses: null },
      });
    }
    expect((await read(draft.slug)).status).toBe(404);
    // The owner's editor does not open a trashed post (its page alerts and goes to /blog).
    expect(await edit(gone.id)).toEqual({ status: 404, value: { post: null } });

    expect(await post({ intent: "restore", id: String(gone.id) })).toEqual({
      status: 200,
      value: { ok: true, message: "“Was public” is restored.", path: "/blog/now-here" },
    });
    expect((await read("now-here")).status).toBe(200);
    expect(await read("was-public")).toEqual({ status: 301, value: "/blog/now-here" });
  });

  it("the trash's action restores, asks, deletes forever, and refuses what it cannot do", async () => {
    const db = database.db;
    const a = await createPost(db, write({ title: "Post A" }));
    const live = await createPost(db, write({ title: "Live" }));
    await trashPost(db, a.id);

    expect(await post({ intent: "ask", id: String(a.id) })).toEqual({
      status: 200,
      value: { ok: true, message: "", confirm: a.id },
    });
    expect(await countTrash(db)).toBe(1);
    expect(await post({ intent: "delete", id: String(a.id) })).toEqual({
      status: 200,
      value: { ok: true, message: "“Post A” is deleted forever." },
    });
    expect(await countTrash(db)).toBe(0);
    const notInTrash = { ok: false, message: "That post is not in the trash any more." };
    for (const intent of ["delete", "restore", "ask"]) {
      expect(await post({ intent, id: String(a.id) })).toEqual({ status: 404, value: notInTrash });
      expect(await post({ intent, id: String(live.id) })).toEqual({
        status: 404,
        value: notInTrash,
      });
    }
    const unreadable = {
      status: 400,
      value: { ok: false, message: "That request could not be read." },
    };
    const refused: Record<string, string>[] = [
      { intent: "purge", id: String(live.id) },
      { intent: "delete", id: "x" },
      {},
    ];
    for (const fields of refused) {
      expect(await post(fields)).toEqual(unreadable);
    }
    expect(await getPost(db, live.id)).not.toBeNull();
  });

  it("the owner's list counts the trash and names the post just deleted while it is there", async () => {
    const db = database.db;
    const a = await createPost(db, write({ title: "Just deleted" }));
    expect(await owners(`?trashed=${a.id}`)).toMatchObject({ trashCount: 0, trashed: null });
    await trashPost(db, a.id);
    expect(await owners(`?trashed=${a.id}`)).toMatchObject({
      trashCount: 1,
      trashed: { id: a.id, title: "Just deleted" },
    });
    expect(await owners("?trashed=nope")).toMatchObject({ trashCount: 1, trashed: null });
    await restorePost(db, a.id);
    expect(await owners(`?trashed=${a.id}`)).toMatchObject({ trashCount: 0, trashed: null });
  });
});
