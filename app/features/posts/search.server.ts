/**
 * Blog search: full-text over title, description and body, best match first, with the matched
 * words marked; a part of a title or description when the words find nothing.
 */
import { and, count, ilike, or, sql, type SQL } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import { blogPosts } from "../../../database/schema";
import { PAGE_SIZE } from "~/lib/constants";
import {
  isPublished,
  newestFirst,
  pageCountFor,
  summary,
  tagsOfPost,
  withoutMatch,
  type PostPage,
} from "./post-rows.server";
import { MARK_END, MARK_START, parseSearch } from "./search-query";

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The tsquery of a search, built by PostgreSQL from the parts the reader typed
 * (./search-query.ts) with the blog's own text search configuration (migration 0007):
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
export async function searchPage(db: Database, page: number, search: string): Promise<PostPage> {
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
