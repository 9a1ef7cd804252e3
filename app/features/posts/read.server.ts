/** Reading posts: the blog's pages, a tag's, one post, related posts, feeds and sitemap. */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import { blogPosts, blogStats, postSlugs, postTags, tagStats } from "../../../database/schema";
import { PAGE_SIZE, SEARCH_MAX_LENGTH } from "~/lib/constants";
import { parseSerialId } from "~/lib/ids";
import {
  fullPost,
  isPublished,
  liveStatus,
  newestFirst,
  notTrashed,
  pageCountFor,
  summary,
  withoutMatch,
  type Post,
  type PostPage,
} from "./post-rows.server";
import type { OwnerPostRow } from "./owner-post-list";
import type { RelatedPost } from "./reader/post-view";
import { searchPage } from "./search.server";
import { tagPageStarts } from "./tag-starts.server";
import { SLUG_FORMAT } from "./slug";

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

/**
 * One page of a tag's published posts, newest first. The count comes from tag_stats (kept by
 * triggers), and a page past the first starts at a boundary cached per tag and version, then
 * reads PAGE_SIZE rows of the tag's index: the last page of a tag with 25,000 posts costs what
 * its first does.
 */
export async function listTagPage(
  db: Database,
  { tag, page }: { tag: string; page: number },
): Promise<PostPage> {
  const [stats] = await db.select().from(tagStats).where(eq(tagStats.tag, tag));
  const total = stats?.postCount ?? 0;
  const pageCount = pageCountFor(total);
  if (page > pageCount) return { posts: [], total, pageCount };
  let listed = and(eq(postTags.tag, tag), sql`${postTags.listedAt} is not null`);
  if (page > 1) {
    const start = (await tagPageStarts(db, tag, stats?.version ?? 0)).starts[page - 1];
    if (!start) return { posts: [], total, pageCount };
    listed = and(
      listed,
      sql`(${postTags.listedAt}, ${postTags.postId}) <= (${start.at}::timestamptz, ${start.id})`,
    );
  }
  // One walk down the tag's index (listed_at is the post's published_at), joined row by row.
  const posts = await db
    .select(summary)
    .from(postTags)
    .innerJoin(blogPosts, eq(blogPosts.id, postTags.postId))
    .where(and(listed, isPublished))
    .orderBy(desc(postTags.listedAt), desc(postTags.postId))
    .limit(PAGE_SIZE);
  return { posts: posts.map(withoutMatch), total, pageCount };
}

/** Every tag of a published post, with how many published posts have it, most used first. */
export async function listTags(db: Database): Promise<{ tag: string; count: number }[]> {
  return db
    .select({ tag: tagStats.tag, count: tagStats.postCount })
    .from(tagStats)
    .where(sql`${tagStats.postCount} > 0`)
    .orderBy(desc(tagStats.postCount), asc(tagStats.tag));
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

/** A post by id, whatever its state but trashed (the editor's, and the old numeric URLs'). */
export async function getPost(db: Database, id: number): Promise<Post | null> {
  const [post] = await db
    .select(fullPost)
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), notTrashed));
  return post ?? null;
}

/**
 * What `/blog/{segment}` can name: a post by its id (the original URLs), or by a slug it has or
 * had. Slugs are lower case: `/blog/Migracion-Rapida` names `migracion-rapida`. Null for what can
 * be neither (blog_posts_slug_format): the database need not be asked.
 */
export function postKeyOf(segment: string): { id: number } | { slug: string } | null {
  if (/^\d+$/.test(segment)) {
    const id = parseSerialId(segment);
    return id === null ? null : { id };
  }
  const slug = segment.toLowerCase();
  return SLUG_FORMAT.test(slug) ? { slug } : null;
}

/**
 * The post `/blog/{segment}` names, whatever its state but trashed, and whether the reader must be sent on
 * to its current slug (the segment is the post's id, the original URL, or one of its old
 * slugs). Null when no post has or had it.
 */
export async function findPostByPath(
  db: Database,
  segment: string,
): Promise<{ post: Post; moved: boolean } | null> {
  const key = postKeyOf(segment);
  if (key === null) return null;
  if ("id" in key) {
    const post = await getPost(db, key.id);
    return post ? { post, moved: true } : null;
  }
  const { slug } = key;
  const [post] = await db
    .select(fullPost)
    .from(postSlugs)
    .innerJoin(blogPosts, eq(blogPosts.id, postSlugs.postId))
    .where(and(eq(postSlugs.slug, slug), notTrashed));
  return post ? { post, moved: post.slug !== segment } : null;
}

/**
 * How many of each tag's newest posts are candidates for a post's related posts: the work of
 * finding them is bounded by the post's tags times this, however many posts a tag holds.
 */
export const RELATED_CANDIDATES_PER_TAG = 100;

/**
 * Up to `limit` other published posts for the foot of a post: among the newest
 * RELATED_CANDIDATES_PER_TAG of each of its tags, those sharing the most tags first, then the
 * newest; then the newest posts (so a post with few or no tags still offers the latest). Each
 * tag's candidates are read from the end of its index, so a tag of 25,000 posts costs what a
 * tag of 100 does.
 */
export async function relatedPosts(db: Database, id: number, limit = 3): Promise<RelatedPost[]> {
  const rows = rowsOf<{ slug: string; title: string; published_at: string }>(
    await db.execute(sql`
      with candidates as (
        select c.post_id, c.listed_at
        from post_tags a
        cross join lateral (
          select b.post_id, b.listed_at from post_tags b
          where b.tag = a.tag and b.listed_at is not null and b.post_id <> a.post_id
          order by b.listed_at desc, b.post_id desc
          limit ${RELATED_CANDIDATES_PER_TAG}
        ) c
        where a.post_id = ${id}
      ),
      shared as (
        select post_id, count(*) as n
        from candidates
        group by post_id
        order by n desc, max(listed_at) desc, post_id desc
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

/** The owner's list: every post whatever its state (the trash aside), the newest first. */
export async function listOwnerPosts(
  db: Database,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ posts: OwnerPostRow[]; total: number; pageCount: number }> {
  const [counted] = await db.select({ n: count() }).from(blogPosts).where(notTrashed);
  const total = counted?.n ?? 0;
  const posts = await db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      title: blogPosts.title,
      status: liveStatus,
      publishedAt: blogPosts.publishedAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(notTrashed)
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { posts, total, pageCount: Math.ceil(total / pageSize) };
}
