import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import {
  blogPosts,
  blogStats,
  postSlugs,
  postTags,
  type PostStatus,
} from "../../../database/schema";
import { PAGE_SIZE, SEARCH_MAX_LENGTH } from "~/lib/constants";
import { parseSerialId } from "~/lib/ids";
import { SLUG_FORMAT } from "./slug";
import type { PublishRequest } from "./publishing";
import { MARK_END, MARK_START, parseSearch } from "./search-query";

export type PostSummary = {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  publishedAt: Date;
  tags: string[];
  /**
   * For a search: the words that matched, in the title and in a snippet of the description or
   * body, between MARK_START and MARK_END (app/features/posts/search-query.ts). Null when the search found
   * the post by its second chance (a part of the title or description) or there is no search.
   */
  match: { title: string; snippet: string } | null;
};

export type PostPage = {
  posts: PostSummary[];
  /** Posts matching the search or tag (all published posts without one). */
  total: number;
  pageCount: number;
};

/** What visitors may see: published posts. Drafts and scheduled posts are the owner's alone. */
const isPublished = eq(blogPosts.status, "published");

const tagsOfPost = sql<
  string[]
>`array(select ${postTags.tag} from ${postTags} where ${postTags.postId} = ${blogPosts.id} order by ${postTags.position})`;
const summary = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  description: blogPosts.description,
  publishedAt: sql<Date>`${blogPosts.publishedAt}`.mapWith(blogPosts.publishedAt),
  tags: tagsOfPost,
};
const newestFirst = [desc(blogPosts.publishedAt), desc(blogPosts.id)] as const;

export const pageCountFor = (total: number) => Math.ceil(total / PAGE_SIZE);

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of published posts, newest first, and how many there are. Without a search the total
 * comes from blog_stats and the page is found from a cached boundary, so page 20,000 costs what
 * page 1 does. A search is full-text (searchPage). Pages past the last come back empty (the
 * caller answers 404).
 */
export async function listPostsPage(
  db: Database,
  { page, search }: { page: number; search: string },
): Promise<PostPage> {
  if (search) return searchPage(db, page, search.slice(0, SEARCH_MAX_LENGTH));

  const [stats] = await db.select().from(blogStats);
  const total = stats?.postCount ?? 0;
  const pageCount = pageCountFor(total);
  if (page > pageCount) return { posts: [], total, pageCount };

  let where: SQL | undefined = isPublished;
  if (page > 1) {
    const start = (await pageStarts(db, stats?.version ?? 0)).starts[page - 1];
    if (!start) return { posts: [], total, pageCount };
    where = and(
      isPublished,
      sql`(${blogPosts.publishedAt}, ${blogPosts.id}) <= (${start.at}::timestamptz, ${start.id})`,
    );
  }
  const posts = await db
    .select(summary)
    .from(blogPosts)
    .where(where)
    .orderBy(...newestFirst)
    .limit(PAGE_SIZE);
  return { posts: posts.map(withoutMatch), total, pageCount };
}

const withoutMatch = <T extends object>(post: T) => ({ ...post, match: null });

/**
 * One page of a tag's published posts, newest first. post_tags keeps each tag's listed posts in
 * one index in that order, so the page and the count are read from it alone.
 */
export async function listTagPage(
  db: Database,
  { tag, page }: { tag: string; page: number },
): Promise<PostPage> {
  const listed = and(eq(postTags.tag, tag), sql`${postTags.listedAt} is not null`);
  const [counted] = await db.select({ n: count() }).from(postTags).where(listed);
  const total = counted?.n ?? 0;
  const pageCount = pageCountFor(total);
  if (page > pageCount) return { posts: [], total, pageCount };
  const ids = db
    .select({ id: postTags.postId })
    .from(postTags)
    .where(listed)
    .orderBy(desc(postTags.listedAt), desc(postTags.postId))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  const posts = await db
    .select(summary)
    .from(blogPosts)
    .where(and(isPublished, inArray(blogPosts.id, ids)))
    .orderBy(...newestFirst);
  return { posts: posts.map(withoutMatch), total, pageCount };
}

/** Every tag of a published post, with how many published posts have it, most used first. */
export async function listTags(db: Database): Promise<{ tag: string; count: number }[]> {
  return db
    .select({ tag: postTags.tag, count: count() })
    .from(postTags)
    .where(sql`${postTags.listedAt} is not null`)
    .groupBy(postTags.tag)
    .orderBy(desc(count()), asc(postTags.tag));
}

/**
 * The tsquery of a search, built by PostgreSQL from the parts the reader typed
 * (app/features/posts/search-query.ts) with the blog's own text search configuration (migration 0007):
 * accents folded, every part required.
 */
function tsqueryOf(search: string): SQL | null {
  const { words, phrases, prefixes } = parseSearch(search);
  // Angle brackets are spaces, as in the posts' documents (blog_post_document): the parser would
  // take "<script>" for markup and drop the word.
  const text = (typed: string) => sql`translate(${typed}, '<>', '  ')`;
  const parts: SQL[] = [];
  if (words) parts.push(sql`plainto_tsquery('blog_search', ${text(words)})`);
  for (const phrase of phrases) {
    parts.push(sql`phraseto_tsquery('blog_search', ${text(phrase)})`);
  }
  // A prefix's text is read as plain words, the last of them a prefix ("node.js*", "migr*").
  for (const prefix of prefixes) {
    parts.push(
      sql`regexp_replace(plainto_tsquery('blog_search', ${text(prefix)})::text, '''$', ''':*')::tsquery`,
    );
  }
  return parts.length === 0 ? null : sql.join(parts, sql` && `);
}

const RANK_WEIGHTS = sql`'{0, 0.1, 0.4, 1}'::float4[]`;
const MARKS = `StartSel=${MARK_START}, StopSel=${MARK_END}`;
/** A snippet: up to two fragments of the text around the matches. */
const SNIPPET_OPTIONS = `${MARKS}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;
/**
 * A title whole, its matches marked. HighlightAll keeps every word only without fragments: with
 * MaxFragments the title was cut like a snippet, losing short words at its start ("Tom & Jerry").
 */
const WHOLE_OPTIONS = `${MARKS}, HighlightAll=true`;
/**
 * What the text a snippet is cut from goes through: the marks' own characters are dropped, and
 * angle brackets stand in as two private-use characters, which ts_headline's parser takes for
 * spaces (it would drop "<script>" written in a post as markup) and shownText puts back.
 */
const SNIPPET_FROM = `<>${MARK_START}${MARK_END}\uE000\uE001`;
const SNIPPET_TO = "\uE000\uE001";
const shownText = (snippet: string) => snippet.replaceAll("\uE000", "<").replaceAll("\uE001", ">");

/**
 * A full-text search over title (weighted most), description and the body's text, best match
 * first, then newest. The matched words come back marked in the title and in a snippet.
 *
 * When the words find nothing (or the text holds no word: symbols, emoji, part of a CJK word),
 * the search has a second chance: a part of a title or description, case-insensitively, as the
 * blog searched before full-text search (the trigram indexes of migration 0001).
 */
async function searchPage(db: Database, page: number, search: string): Promise<PostPage> {
  const query = tsqueryOf(search);
  if (query) {
    const found = await fullTextPage(db, page, query);
    if (found.total > 0) return found;
  }
  return substringPage(db, page, search);
}

type SearchRow = {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  published_at: string;
  tags: string[];
  total: string | number;
  title_marked: string;
  description_marked: string;
  body_marked: string;
};

async function fullTextPage(db: Database, page: number, query: SQL): Promise<PostPage> {
  const rows = rowsOf<SearchRow>(
    await db.execute(sql`
      with q as (select ${query} as query),
      hits as (
        select p.id, ts_rank(${RANK_WEIGHTS}, p.search_vector, q.query) as rank,
               p.published_at, count(*) over () as total
        from blog_posts p, q
        where p.status = 'published' and p.search_vector @@ q.query
        order by rank desc, p.published_at desc, p.id desc
        limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}
      )
      select blog_posts.id, slug, title, description, blog_posts.published_at::text as published_at,
             ${tagsOfPost} as tags,
             hits.total,
             ts_headline('blog_search', translate(title, ${SNIPPET_FROM}, ${SNIPPET_TO}), q.query,
                         ${WHOLE_OPTIONS}) as title_marked,
             ts_headline('blog_search', translate(coalesce(description, ''), ${SNIPPET_FROM}, ${SNIPPET_TO}),
                         q.query, ${SNIPPET_OPTIONS}) as description_marked,
             ts_headline('blog_search', translate(blog_post_text(content), ${SNIPPET_FROM}, ${SNIPPET_TO}),
                         q.query, ${SNIPPET_OPTIONS}) as body_marked
      from hits join blog_posts using (id), q
      order by hits.rank desc, hits.published_at desc, hits.id desc`),
  );
  let total = rows[0] === undefined ? undefined : Number(rows[0].total);
  if (total === undefined && page > 1) {
    // Past the last page: count alone, for the page count.
    const [counted] = rowsOf<{ n: string | number }>(
      await db.execute(
        sql`select count(*) as n from blog_posts where status = 'published' and search_vector @@ (${query})`,
      ),
    );
    total = Number(counted?.n ?? 0);
  }
  total ??= 0;
  const posts = rows.map((row) => {
    // The snippet shows where the words matched: the body, else the description.
    const snippet = row.body_marked.includes(MARK_START)
      ? row.body_marked
      : row.description_marked.includes(MARK_START)
        ? row.description_marked
        : row.description || row.body_marked;
    return {
      id: Number(row.id),
      slug: row.slug,
      title: row.title,
      description: row.description,
      publishedAt: new Date(row.published_at),
      tags: row.tags,
      match: { title: shownText(row.title_marked), snippet: shownText(snippet.trim()) },
    };
  });
  return { posts, total, pageCount: pageCountFor(total) };
}

async function substringPage(db: Database, page: number, search: string): Promise<PostPage> {
  const pattern = likePattern(search);
  const matches = and(
    isPublished,
    or(ilike(blogPosts.title, pattern), ilike(blogPosts.description, pattern)),
  );
  // One scan for the page and the number of matches (a window count over all of them).
  const rows = await db
    .select({ ...summary, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(blogPosts)
    .where(matches)
    .orderBy(...newestFirst)
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page (or nothing matches): count alone, for the page count.
    total =
      page === 1
        ? 0
        : ((await db.select({ n: count() }).from(blogPosts).where(matches))[0]?.n ?? 0);
  }
  const posts = rows.map(({ total: _total, ...post }) => withoutMatch(post));
  return { posts, total, pageCount: pageCountFor(total) };
}

/**
 * The first published post of every page, as (published_at, id) with published_at as
 * PostgreSQL's own text (microseconds kept). Rebuilt in one statement when blog_stats.version
 * moves, which triggers do on every publication, unpublication, new date, insert or delete,
 * from any instance.
 */
type PageStarts = { version: number; starts: { at: string; id: number }[] };
const pageStartsCache = new WeakMap<Database, Promise<PageStarts>>();

async function pageStarts(db: Database, version: number): Promise<PageStarts> {
  const cached = pageStartsCache.get(db);
  if (cached) {
    const value = await cached.catch(() => undefined);
    if (value && value.version === version) return value;
  }
  const building = buildPageStarts(db, version);
  pageStartsCache.set(db, building);
  building.catch(() => pageStartsCache.delete(db));
  return building;
}

async function buildPageStarts(db: Database, version: number): Promise<PageStarts> {
  const rows = rowsOf<{ version: string | number; at: string; id: number }>(
    await db.execute(sql`
    select (select version from blog_stats) as version, s.at, s.id
    from (
      select published_at::text as at, id,
             row_number() over (order by published_at desc, id desc) as rn
      from blog_posts
      where status = 'published'
    ) s
    where (s.rn - 1) % ${PAGE_SIZE} = 0
    order by s.rn`),
  );
  return {
    version: rows[0] ? Number(rows[0].version) : version,
    starts: rows.map((r) => ({ at: r.at, id: Number(r.id) })),
  };
}

export type Post = {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  content: string;
  contentEn: string | null;
  status: PostStatus;
  /** When it went public (or goes, when scheduled); null for a draft never published. */
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  tags: string[];
};

const fullPost = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  description: blogPosts.description,
  content: blogPosts.content,
  contentEn: blogPosts.contentEn,
  status: blogPosts.status,
  publishedAt: blogPosts.publishedAt,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
  tags: tagsOfPost,
};

/** A post by id, whatever its state (the editor's, and the old numeric URLs'). */
export async function getPost(db: Database, id: number): Promise<Post | null> {
  const [post] = await db.select(fullPost).from(blogPosts).where(eq(blogPosts.id, id));
  return post ?? null;
}

/**
 * The post `/blog/{segment}` names, whatever its state, and whether the reader must be sent on
 * to its current slug (the segment is the post's id, the original URL, or one of its old
 * slugs). Null when no post has or had it.
 */
export async function findPostByPath(
  db: Database,
  segment: string,
): Promise<{ post: Post; moved: boolean } | null> {
  if (/^\d+$/.test(segment)) {
    const id = parseSerialId(segment);
    const post = id === null ? null : await getPost(db, id);
    return post ? { post, moved: true } : null;
  }
  // Slugs are lower case: `/blog/Migracion-Rapida` moves to `/blog/migracion-rapida`. Nothing
  // else can be a slug (blog_posts_slug_format); the database is not asked.
  const slug = segment.toLowerCase();
  if (!SLUG_FORMAT.test(slug)) return null;
  const [post] = await db
    .select(fullPost)
    .from(postSlugs)
    .innerJoin(blogPosts, eq(blogPosts.id, postSlugs.postId))
    .where(eq(postSlugs.slug, slug));
  return post ? { post, moved: post.slug !== segment } : null;
}

export type RelatedPost = { slug: string; title: string; publishedAt: Date };

/**
 * Up to `limit` other published posts for the foot of a post: those sharing the most tags
 * first, then the newest (so a post with few or no tags still offers the latest).
 */
export async function relatedPosts(db: Database, id: number, limit = 3): Promise<RelatedPost[]> {
  const rows = rowsOf<{ slug: string; title: string; published_at: string }>(
    await db.execute(sql`
      with shared as (
        select b.post_id, count(*) as n
        from post_tags a
        join post_tags b on b.tag = a.tag and b.post_id <> a.post_id and b.listed_at is not null
        where a.post_id = ${id}
        group by b.post_id
        order by n desc, max(b.listed_at) desc, b.post_id desc
        limit ${limit}
      ),
      picked as (
        select post_id as id, n from shared
        union all
        select id, 0 from (
          select p.id from blog_posts p
          where p.status = 'published' and p.id <> ${id}
            and p.id not in (select post_id from shared)
          order by p.published_at desc, p.id desc
          limit ${limit}
        ) as newest
      )
      select p.slug, p.title, p.published_at::text as published_at
      from picked join blog_posts p using (id)
      order by picked.n desc, p.published_at desc, p.id desc
      limit ${limit}`),
  );
  return rows.map((r) => ({ slug: r.slug, title: r.title, publishedAt: new Date(r.published_at) }));
}

/** The newest published posts with their content, for the feeds (of one tag, if given). */
export async function listRecentPosts(db: Database, limit: number, tag?: string): Promise<Post[]> {
  const where = tag
    ? and(
        isPublished,
        inArray(
          blogPosts.id,
          db
            .select({ id: postTags.postId })
            .from(postTags)
            .where(and(eq(postTags.tag, tag), sql`${postTags.listedAt} is not null`))
            .orderBy(desc(postTags.listedAt), desc(postTags.postId))
            .limit(limit),
        ),
      )
    : isPublished;
  return db
    .select(fullPost)
    .from(blogPosts)
    .where(where)
    .orderBy(...newestFirst)
    .limit(limit);
}

/**
 * Every published post's slug and last change, newest first, read in batches by keyset so a
 * sitemap of 100,000 posts never holds more than one batch.
 */
export async function* allPostDates(
  db: Database,
  batchSize = 1000,
): AsyncGenerator<{ slug: string; updatedAt: Date }> {
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const where = after
      ? and(
          isPublished,
          sql`(${blogPosts.publishedAt}, ${blogPosts.id}) < (${after.at}::timestamptz, ${after.id})`,
        )
      : isPublished;
    const rows = await db
      .select({
        id: blogPosts.id,
        slug: blogPosts.slug,
        updatedAt: blogPosts.updatedAt,
        at: sql<string>`${blogPosts.publishedAt}::text`,
      })
      .from(blogPosts)
      .where(where)
      .orderBy(...newestFirst)
      .limit(batchSize);
    for (const row of rows) yield { slug: row.slug, updatedAt: row.updatedAt };
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return;
    after = { at: last.at, id: last.id };
  }
}

export type OwnerPostRow = {
  id: number;
  slug: string;
  title: string;
  status: PostStatus;
  publishedAt: Date | null;
  updatedAt: Date;
};

/** The owner's list: every post whatever its state, the most recently changed first. */
export async function listOwnerPosts(
  db: Database,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ posts: OwnerPostRow[]; total: number; pageCount: number }> {
  const [counted] = await db.select({ n: count() }).from(blogPosts);
  const total = counted?.n ?? 0;
  const posts = await db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      title: blogPosts.title,
      status: blogPosts.status,
      publishedAt: blogPosts.publishedAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { posts, total, pageCount: Math.ceil(total / pageSize) };
}

/** What a save answers: where the post is now, and whether visitors see it. */
export type SavedPost = { id: number; slug: string; status: PostStatus };

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

async function writeTags(tx: Transaction, id: number, tags: string[]) {
  await tx.delete(postTags).where(eq(postTags.postId, id));
  if (tags.length > 0) {
    await tx.insert(postTags).values(tags.map((tag, position) => ({ postId: id, tag, position })));
  }
}

/**
 * Stores a new post with its tags, as a draft, published now, or scheduled; the caller has
 * validated and sanitized it. Never writes content_en. Throws SlugTakenError.
 */
export async function createPost(db: Database, post: PostWriteInput): Promise<SavedPost> {
  // "keep" has nothing to keep: a new post is published now.
  const publish = post.publish.mode === "keep" ? { mode: "now" as const } : post.publish;
  const { status, publishedAt } = publication(publish, sql`null::timestamptz`);
  return refusingTakenSlugs(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(blogPosts)
        .values({
          title: post.title,
          description: post.description,
          content: post.content,
          slug: post.slug ?? "",
          status,
          publishedAt,
        })
        .returning({ id: blogPosts.id, slug: blogPosts.slug, status: blogPosts.status });
      await writeTags(tx, row!.id, post.tags ?? []);
      return row!;
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
): Promise<SavedPost | null> {
  const { status, publishedAt } = publication(post.publish, sql`${blogPosts.publishedAt}`);
  return refusingTakenSlugs(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(blogPosts)
        .set({
          title: post.title,
          description: post.description,
          content: post.content,
          slug: post.slug ?? "",
          status,
          publishedAt,
          updatedAt: new Date(),
        })
        .where(eq(blogPosts.id, id))
        .returning({ id: blogPosts.id, slug: blogPosts.slug, status: blogPosts.status });
      if (!row) return null;
      if (post.tags !== null) await writeTags(tx, id, post.tags);
      return row;
    }),
  );
}

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
