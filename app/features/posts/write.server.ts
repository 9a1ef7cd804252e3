/**
 * Writing posts: create, update, and publishing scheduled posts when they are due (deleting is
 * the trash's: ./trash.server.ts).
 */
import { and, eq, ne, sql, type SQL } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import {
  blogPosts,
  postTags,
  type PostStatus,
  type StoredPublishChoice,
} from "../../../database/schema";
import { requestCardRefresh } from "~/features/cards/index.server";
import type { PublishRequest } from "./publishing";
import { tagsOfPost } from "./post-rows.server";
import {
  headRevision,
  recordRevision,
  type RevisionFields,
  type RevisionSource,
  type RevisionSummary,
} from "./revisions/store.server";

/** What a save answers: where the post is now, whether visitors see it, and its new head. */
export type SavedPost = { id: number; slug: string; status: PostStatus; revision: number };

/**
 * A save that started from a revision which is no longer the post's newest: another window,
 * device or instance saved since. Nothing was written; `head` is what it would have overwritten.
 */
export class EditConflictError extends Error {
  override name = "EditConflictError";
  constructor(readonly head: RevisionSummary) {
    super("the post changed since this edit began");
  }
}

/**
 * How a save is made: the revision it started from (null: the post had none; absent: not
 * checked, as for API clients that predate revisions) and where it comes from.
 */
export type SaveOptions = { baseRevision?: number | null; source?: RevisionSource };

const NO_SOURCE: RevisionSource = { device: null, session: null, agent: null };

/** Another post has or had the slug asked for (post_slugs, migration 0007). */
export class SlugTakenError extends Error {
  override name = "SlugTakenError";
}

export type PostWriteInput = {
  title: string;
  description: string;
  content: string;
  /** Null: made from the title for a new post, kept for an existing one. */
  slug: string | null;
  /** Null: none for a new post, kept for an existing one. */
  tags: string[] | null;
  publish: PublishRequest;
  /** The `Send to subscribers` choice; absent: kept (a new post's: no). */
  sendToSubscribers?: boolean;
  /** Where the post was first published, if elsewhere (null: here); absent: kept (a new post's: here). */
  canonicalUrl?: string | null;
  /** The addresses of its copies elsewhere; absent: kept (a new post's: none). */
  syndication?: string[];
};

/**
 * The state and publication time a save asks for, as SQL over the post's current publication
 * time (`current`; null for a new post), so the database's clock decides what "now" is.
 */
function publication(publish: PublishRequest, current: SQL) {
  switch (publish.mode) {
    case "keep":
      return { status: sql<PostStatus>`${blogPosts.status}`, publishedAt: current };
    case "draft":
      // Unpublishing keeps the date it first went public, for when it is published again.
      return { status: sql<PostStatus>`'draft'`, publishedAt: current };
    case "now":
      // Keeps the date of a post already public (an edit); a draft or a scheduled post goes
      // public now.
      return {
        status: sql<PostStatus>`'published'`,
        publishedAt: sql`case when ${current} <= now() then ${current} else now() end`,
      };
    case "at": {
      const at = publish.at.toISOString();
      return {
        status: sql<PostStatus>`case when ${at}::timestamptz > now() then 'scheduled' else 'published' end`,
        publishedAt: sql`${at}::timestamptz`,
      };
    }
  }
}

/** Runs a write, turning the database's refusal of a taken slug into SlugTakenError. */
async function refusingTakenSlugs<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isSlugConflict(error)) throw new SlugTakenError("slug taken", { cause: error });
    throw error;
  }
}

function isSlugConflict(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as { code?: string; constraint?: string };
    if (
      code === "23505" &&
      (constraint === "post_slugs_pkey" || constraint === "blog_posts_slug_idx")
    ) {
      return true;
    }
  }
  return false;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export async function writeTags(tx: Transaction, id: number, tags: string[]) {
  await tx.delete(postTags).where(eq(postTags.postId, id));
  if (tags.length > 0) {
    await tx.insert(postTags).values(tags.map((tag, position) => ({ postId: id, tag, position })));
  }
}

/**
 * The columns a save writes. An empty slug has the database make one from the title for a new
 * post and keep the current one on an update (migration 0007's blog_posts_before_write).
 */
function savedColumns(post: PostWriteInput, publish: PublishRequest, current: SQL) {
  return {
    title: post.title,
    description: post.description,
    content: post.content,
    slug: post.slug ?? "",
    ...publication(publish, current),
    ...(post.sendToSubscribers === undefined ? {} : { sendToSubscribers: post.sendToSubscribers }),
    ...(post.canonicalUrl === undefined ? {} : { canonicalUrl: post.canonicalUrl }),
    ...(post.syndication === undefined ? {} : { syndication: post.syndication }),
  };
}

/** What a save returns of the row it wrote. */
const savedPost = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  status: sql<PostStatus>`${blogPosts.status}`,
};

/**
 * How a new post is stored: `updatedAt`, when it was last changed elsewhere (an import keeps an
 * export's date; one later than the database's now is taken as now). Absent: now. `alongside`
 * writes more rows in the post's own transaction (an import records where the post came from),
 * so whatever the post's insert sets off (the federation's job) never sees it without them.
 */
export type CreateOptions = SaveOptions & {
  updatedAt?: Date;
  alongside?: (tx: Transaction, id: number) => Promise<void>;
};

/**
 * Stores a new post with its tags, as a draft, published now, or scheduled; the caller has
 * validated and sanitized it. Never writes content_en. Throws SlugTakenError.
 */
export async function createPost(
  db: Database,
  post: PostWriteInput,
  { source = NO_SOURCE, updatedAt, alongside }: CreateOptions = {},
): Promise<SavedPost> {
  // "keep" has nothing to keep: a new post is published now.
  const publish = post.publish.mode === "keep" ? { mode: "now" as const } : post.publish;
  const columns = {
    ...savedColumns(post, publish, sql`null::timestamptz`),
    ...(updatedAt && {
      updatedAt: sql<Date>`least(${updatedAt.toISOString()}::timestamptz, now())`,
    }),
  };
  return refusingTakenSlugs(() =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(blogPosts).values(columns).returning(savedPost);
      await writeTags(tx, row!.id, post.tags ?? []);
      await refreshCardOf(tx, row!.status);
      const fields = revisionFieldsOf(post, post.tags ?? []);
      const head = await recordRevision(tx, row!.id, {
        kind: "manual",
        applied: true,
        fields,
        source,
      });
      await alongside?.(tx, row!.id);
      return { ...row!, revision: head.id };
    }),
  );
}

/**
 * Updates a post's text, slug, tags and state (and updated_at); null when there is no such
 * post. Throws SlugTakenError.
 */
export async function updatePost(
  db: Database,
  id: number,
  post: PostWriteInput,
  { baseRevision, source = NO_SOURCE }: SaveOptions = {},
): Promise<SavedPost | null> {
  const columns = savedColumns(post, post.publish, sql`${blogPosts.publishedAt}`);
  return refusingTakenSlugs(() =>
    db.transaction(async (tx) => {
      const current = await lockPost(tx, id);
      if (!current) return null;
      await checkBase(tx, current, baseRevision);
      const [row] = await tx
        .update(blogPosts)
        .set({ ...columns, updatedAt: new Date() })
        .where(eq(blogPosts.id, id))
        .returning(savedPost);
      if (post.tags !== null) await writeTags(tx, id, post.tags);
      await refreshCardOf(tx, row!.status);
      const fields = revisionFieldsOf(post, post.tags ?? current.tags, current);
      const head = await recordRevision(tx, id, { kind: "manual", applied: true, fields, source });
      return { ...row!, revision: head.id };
    }),
  );
}

/**
 * A saved post that visitors see, or will on schedule, gets its share card drawn again by a job
 * when its title or date changed (a draft gets its own when published). Autosaves never ask:
 * they change no such post's row.
 */
async function refreshCardOf(tx: Database, status: PostStatus) {
  if (status === "published" || status === "scheduled") await requestCardRefresh(tx);
}

/** The post's row as a save finds it, locked until the save commits; null when missing or trashed. */
export async function lockPost(tx: Database, id: number) {
  const [row] = await tx
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      description: blogPosts.description,
      content: blogPosts.content,
      slug: blogPosts.slug,
      status: blogPosts.status,
      publishedAt: blogPosts.publishedAt,
      updatedAt: blogPosts.updatedAt,
      tags: tagsOfPost,
      canonicalUrl: sql<string>`coalesce(${blogPosts.canonicalUrl}, '')`,
      syndication: sql<string[]>`coalesce(${blogPosts.syndication}, '[]'::jsonb)`,
    })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), ne(blogPosts.status, "trashed")))
    .for("update");
  return row ?? null;
}

export type LockedPost = NonNullable<Awaited<ReturnType<typeof lockPost>>>;

/**
 * Refuses a save that started from another revision than the post's head (EditConflictError).
 * A post written before revisions existed gets its first one here, from its row, so its text
 * before this save stays in its history.
 */
export async function checkBase(
  tx: Database,
  post: LockedPost,
  baseRevision: number | null | undefined,
): Promise<void> {
  let head = await headRevision(tx, post.id);
  if (!head) {
    head = await recordRevision(tx, post.id, {
      kind: "manual",
      applied: true,
      fields: { ...post, description: post.description ?? "", publish: null },
      source: NO_SOURCE,
    });
    if (baseRevision === null) return;
  }
  if (baseRevision !== undefined && baseRevision !== head.id) throw new EditConflictError(head);
}

/** A revision's fields for a save; links it keeps are the row's (`current`). */
export function revisionFieldsOf(
  post: PostWriteInput,
  tags: string[],
  current: Pick<RevisionFields, "canonicalUrl" | "syndication"> = EMPTY_LINKS,
): RevisionFields {
  return {
    canonicalUrl:
      post.canonicalUrl === undefined ? current.canonicalUrl : (post.canonicalUrl ?? ""),
    syndication: post.syndication ?? current.syndication,
    title: post.title,
    description: post.description,
    content: post.content,
    slug: post.slug ?? "",
    tags,
    publish: storedChoice(post.publish),
  };
}

const EMPTY_LINKS = { canonicalUrl: "", syndication: [] };

const storedChoice = (publish: PublishRequest): StoredPublishChoice =>
  publish.mode === "at" ? { mode: "at", at: publish.at.toISOString() } : publish;

export async function deletePost(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(blogPosts)
    .where(eq(blogPosts.id, id))
    .returning({ id: blogPosts.id });
  return rows.length > 0;
}

/**
 * Publishes every scheduled post whose time has come, by the database's clock; what it
 * publishes tells every instance's page cache (migration 0004's triggers). Any instance may run
 * it at any time: a post is published once.
 */
export async function publishDuePosts(db: Database): Promise<number[]> {
  const rows = await db
    .update(blogPosts)
    .set({ status: "published" })
    .where(and(eq(blogPosts.status, "scheduled"), sql`${blogPosts.publishedAt} <= now()`))
    .returning({ id: blogPosts.id });
  return rows.map((r) => r.id);
}

/** Milliseconds until the next scheduled post is due by the database's clock; null if none. */
export async function nextScheduledIn(db: Database): Promise<number | null> {
  const [row] = rowsOf<{ ms: string | number | null }>(
    await db.execute(
      sql`select extract(epoch from (min(published_at) - now())) * 1000 as ms from blog_posts where status = 'scheduled'`,
    ),
  );
  return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
}
