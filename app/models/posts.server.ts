import { count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";

import type { Database } from "../../database/db.server";
import { blogPosts, blogStats } from "../../database/schema";
import { PAGE_SIZE, SEARCH_MAX_LENGTH } from "../lib/constants";

export type PostSummary = {
  id: number;
  title: string;
  description: string | null;
  createdAt: Date;
};

export type PostPage = {
  posts: PostSummary[];
  /** Posts matching the search (all posts without one). */
  total: number;
  pageCount: number;
};

const summary = {
  id: blogPosts.id,
  title: blogPosts.title,
  description: blogPosts.description,
  createdAt: blogPosts.createdAt,
};
const newestFirst = [desc(blogPosts.createdAt), desc(blogPosts.id)] as const;

export const pageCountFor = (total: number) => Math.ceil(total / PAGE_SIZE);

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of posts, newest first, and how many there are. Without a search the total comes
 * from blog_stats and the page is found from a cached boundary, so page 20,000 costs what
 * page 1 does; a search filters title or description case-insensitively through the trigram
 * indexes. Pages past the last come back empty (the caller answers 404).
 */
export async function listPostsPage(
  db: Database,
  { page, search }: { page: number; search: string },
): Promise<PostPage> {
  if (search) return searchPosts(db, page, search);

  const [stats] = await db.select().from(blogStats);
  const total = stats?.postCount ?? 0;
  const pageCount = pageCountFor(total);
  if (page > pageCount) return { posts: [], total, pageCount };

  let where: SQL | undefined;
  if (page > 1) {
    const start = (await pageStarts(db, stats?.version ?? 0)).starts[page - 1];
    if (!start) return { posts: [], total, pageCount };
    where = sql`(${blogPosts.createdAt}, ${blogPosts.id}) <= (${start.at}::timestamptz, ${start.id})`;
  }
  const posts = await db
    .select(summary)
    .from(blogPosts)
    .where(where)
    .orderBy(...newestFirst)
    .limit(PAGE_SIZE);
  return { posts, total, pageCount };
}

async function searchPosts(db: Database, page: number, search: string): Promise<PostPage> {
  const pattern = likePattern(search.slice(0, SEARCH_MAX_LENGTH));
  const matches = or(ilike(blogPosts.title, pattern), ilike(blogPosts.description, pattern));
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
  const posts = rows.map(({ total: _total, ...post }) => post);
  return { posts, total, pageCount: pageCountFor(total) };
}

/**
 * The first post of every page, as (created_at, id) with created_at as PostgreSQL's own text
 * (microseconds kept). Rebuilt in one statement when blog_stats.version moves, which triggers
 * do on every insert, delete or created_at change, from any instance.
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
  const result = (await db.execute(sql`
    select (select version from blog_stats) as version, s.at, s.id
    from (
      select created_at::text as at, id,
             row_number() over (order by created_at desc, id desc) as rn
      from blog_posts
    ) s
    where (s.rn - 1) % ${PAGE_SIZE} = 0
    order by s.rn`)) as unknown as { rows: { version: string | number; at: string; id: number }[] };
  const rows = result.rows;
  return {
    version: rows[0] ? Number(rows[0].version) : version,
    starts: rows.map((r) => ({ at: r.at, id: Number(r.id) })),
  };
}

export type Post = {
  id: number;
  title: string;
  description: string | null;
  content: string;
  contentEn: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export async function getPost(db: Database, id: number): Promise<Post | null> {
  const [post] = await db.select().from(blogPosts).where(eq(blogPosts.id, id));
  return post ?? null;
}

/** The newest posts with their content, for the feed. */
export function listRecentPosts(db: Database, limit: number): Promise<Post[]> {
  return db
    .select()
    .from(blogPosts)
    .orderBy(...newestFirst)
    .limit(limit);
}

/**
 * Every post's id and last change, newest first, read in batches by keyset so a sitemap of
 * 100,000 posts never holds more than one batch.
 */
export async function* allPostDates(
  db: Database,
  batchSize = 1000,
): AsyncGenerator<{ id: number; updatedAt: Date }> {
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const where = after
      ? sql`(${blogPosts.createdAt}, ${blogPosts.id}) < (${after.at}::timestamptz, ${after.id})`
      : undefined;
    const rows = await db
      .select({
        id: blogPosts.id,
        updatedAt: blogPosts.updatedAt,
        at: sql<string>`${blogPosts.createdAt}::text`,
      })
      .from(blogPosts)
      .where(where)
      .orderBy(...newestFirst)
      .limit(batchSize);
    for (const row of rows) yield { id: row.id, updatedAt: row.updatedAt };
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return;
    after = { at: last.at, id: last.id };
  }
}

/** Stores a new post; the caller has validated and sanitized it. Never writes content_en. */
export async function createPost(
  db: Database,
  post: { title: string; description: string; content: string },
): Promise<number> {
  const [row] = await db
    .insert(blogPosts)
    .values({ title: post.title, description: post.description, content: post.content })
    .returning({ id: blogPosts.id });
  return row!.id;
}

/** Updates title, description and content (and updated_at); false when there is no such post. */
export async function updatePost(
  db: Database,
  id: number,
  post: { title: string; description: string; content: string },
): Promise<boolean> {
  const rows = await db
    .update(blogPosts)
    .set({
      title: post.title,
      description: post.description,
      content: post.content,
      updatedAt: new Date(),
    })
    .where(eq(blogPosts.id, id))
    .returning({ id: blogPosts.id });
  return rows.length > 0;
}

export async function deletePost(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(blogPosts)
    .where(eq(blogPosts.id, id))
    .returning({ id: blogPosts.id });
  return rows.length > 0;
}
