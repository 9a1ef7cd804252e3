import path from "node:path";

import { sql } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import { importedPaths, importedPosts } from "../../../database/schema";
import { dropImportedPostWebmentions } from "~/features/social/index.server";
import { escapeHtml } from "./html-clean";
import {
  type FailedImage,
  type ImageCache,
  type ImageOptions,
  rehostImages,
} from "./images.server";
import { type ImportContext, type ImportPlan, type PlannedPost, planImport } from "./plan";
import type { ParsedExport } from "./types";
import { POST_LIMITS, POST_LINK_LIMITS, webAddress } from "~/features/posts";
import { SlugTakenError, createPost, storableContent } from "~/features/posts/index.server";

/** What an import did: the posts it created, those it could not, and what it skipped. */
export type ImportResult = {
  created: { id: number; slug: string; title: string }[];
  failed: { sourceId: string; title: string; reason: string }[];
  skipped: ImportPlan["skipped"];
  /** The images brought here, and those that could not be (kept as links). */
  images: { rehosted: number; failed: (FailedImage & { title: string })[] };
};

/** How an import runs: `images: false` leaves every image a link, fetching none. */
export type ImportOptions = { images?: ImageOptions | false };

/** Called after each post, done of total, so that a long import can show how far it is. */
export type ImportProgress = (done: number, total: number) => void | Promise<void>;

/** The slugs, imported ids and tags this site holds now: what a plan must not collide with. */
export async function importContext(db: Database): Promise<ImportContext> {
  const slugs = rowsOf<{ slug: string }>(await db.execute(sql`select slug from post_slugs`));
  const imported = rowsOf<{ source: string; source_id: string; post_id: number }>(
    await db.execute(sql`select source, source_id, post_id from imported_posts`),
  );
  const tags = rowsOf<{ tag: string }>(await db.execute(sql`select distinct tag from post_tags`));
  return {
    takenSlugs: new Set(slugs.map((row) => row.slug)),
    imported: new Map(imported.map((row) => [`${row.source}:${row.source_id}`, row.post_id])),
    existingTags: new Set(tags.map((row) => row.tag)),
  };
}

/** The dry run against this site's database: what an import would do; nothing is written. */
export async function dryRun(db: Database, parsed: ParsedExport): Promise<ImportPlan> {
  return planImport(parsed, await importContext(db));
}

/**
 * An image not brought here yet: the sanitizer keeps only this site's own images, so a remote
 * one stays as a link to where it was (its alternative text the link's), a relative one as its
 * text.
 */
export function imagesAsLinks(html: string): string {
  // An image that links to itself (WordPress's "link to media file") is one link, not two.
  const unwrapped = html.replace(/<a\b[^>]*>\s*(<img\b[^>]*>)\s*<\/a>/gi, "$1");
  return unwrapped.replace(/<img\b[^>]*>/gi, (tag) => {
    if (/\bsrc\s*=\s*["']\/media\//i.test(tag)) return tag;
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1] ?? "";
    const alt = /\balt\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]?.trim() || "Image";
    return /^https?:\/\//i.test(src) ? `<a href="${src}">${alt}</a>` : escapeHtml(alt);
  });
}

/** The editor has no figures: a figure becomes a paragraph, its caption a line in italics. */
export function figuresAsParagraphs(html: string): string {
  return html
    .replace(/<figcaption\b[^>]*>([\s\S]*?)<\/figcaption>/gi, "<br><em>$1</em>")
    .replace(/<figure\b[^>]*>/gi, "<p>")
    .replace(/<\/figure>/gi, "</p>");
}

type ImageWork = {
  options: ImageOptions | false;
  cache: ImageCache;
  result: ImportResult;
  /** The export's own image files, for posts that link them relatively. */
  attachments?: ParsedExport["attachments"];
};

/** The post's cover as its first image, unless the body shows that image already. */
export function withCover(html: string, cover: PlannedPost["cover"]): string {
  if (!cover || html.includes(cover.url) || html.includes(escapeHtml(cover.url))) return html;
  const attribute = (text: string) => escapeHtml(text).replace(/"/g, "&quot;");
  return `<p><img src="${attribute(cover.url)}" alt="${attribute(cover.alt)}"></p>${html}`;
}

async function htmlOf(post: PlannedPost, images: ImageWork, db: Database): Promise<string> {
  let html = withCover(
    figuresAsParagraphs(
      post.body.format === "markdown"
        ? // As the Markdown import and the editor's paste convert it (footnotes, math, callouts).
          (await import("~/features/posts/index.markdown")).markdownToHtml(post.body.text)
        : post.body.text,
    ),
    post.cover,
  );
  if (images.options !== false) {
    const local = images.attachments && {
      files: images.attachments,
      base: path.posix.dirname(post.sourceId),
    };
    const rehosted = await rehostImages(db, html, images.options, images.cache, local);
    html = rehosted.html;
    for (const failed of rehosted.failed)
      images.result.images.failed.push({ ...failed, title: post.title });
  }
  return imagesAsLinks(html);
}

const publishOf = (post: PlannedPost) =>
  post.status === "draft"
    ? { mode: "draft" as const }
    : { mode: "at" as const, at: post.publishedAt ?? new Date() };

/**
 * When the post was last changed on the old site: the export's date, unless it is before the
 * post's publication (an old site's clock or a scheduled post); then the import's time.
 */
export function updatedOf(post: Pick<PlannedPost, "updatedAt" | "publishedAt" | "status">) {
  const { updatedAt, publishedAt } = post;
  if (!updatedAt || Number.isNaN(updatedAt.getTime())) return undefined;
  // A published post without a date is published now: any earlier change is before it.
  if (publishedAt ? updatedAt < publishedAt : post.status !== "draft") return undefined;
  return updatedAt;
}

/** The post's canonical URL and copies elsewhere, those that are web addresses. */
function linksOf(post: PlannedPost) {
  const canonicalUrl = post.canonicalUrl ? webAddress(post.canonicalUrl) : null;
  const syndication = (post.syndication ?? [])
    .map((url) => webAddress(url))
    .filter((url): url is string => url !== null)
    .slice(0, POST_LINK_LIMITS.syndication);
  return { canonicalUrl, syndication: [...new Set(syndication)] };
}

async function importOne(db: Database, post: PlannedPost, images: ImageWork) {
  const content = await storableContent(await htmlOf(post, images, db));
  if (!content.ok) return { error: content.error };
  const saved = await createPost(
    db,
    {
      title: post.title.slice(0, POST_LIMITS.title) || post.slug,
      description: post.description.slice(0, POST_LIMITS.description),
      content: content.html,
      slug: post.slug,
      tags: post.tags,
      publish: publishOf(post),
      ...linksOf(post),
    },
    {
      updatedAt: updatedOf(post),
      // In the post's transaction: the federation's job, set off by the insert, finds the post
      // imported (an archive is not announced to followers: app/features/social/outbox.server.ts),
      // and the Webmentions the insert queued go before any worker sees them.
      alongside: async (tx, postId) => {
        await dropImportedPostWebmentions(tx, postId);
        await tx
          .insert(importedPosts)
          .values({ source: post.source, sourceId: post.sourceId, postId })
          .onConflictDoNothing();
        if (post.oldPaths.length > 0) {
          await tx
            .insert(importedPaths)
            .values(post.oldPaths.map((path) => ({ path, postId })))
            .onConflictDoNothing();
        }
      },
    },
  );
  return { saved };
}

/**
 * Lets the requests that came in meanwhile run: with the embedded database, the import's
 * queries and a reader's share one thread, so each post is followed by a turn of the event loop.
 */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Imports an export through the posts' own write path (the editor's sanitizer, highlighted
 * code, slugs and tags checked by the database): the plan's posts are created one by one, each
 * recorded by its old id so that a second import of the same file skips it.
 */
export async function runImport(
  db: Database,
  parsed: ParsedExport,
  onProgress?: ImportProgress,
  { images = {} }: ImportOptions = {},
): Promise<ImportResult> {
  const plan = await dryRun(db, parsed);
  const result: ImportResult = {
    created: [],
    failed: [],
    skipped: plan.skipped,
    images: { rehosted: 0, failed: [] },
  };
  const work: ImageWork = {
    options: images,
    cache: new Map(),
    result,
    attachments: parsed.attachments,
  };
  for (const [index, post] of plan.create.entries()) {
    try {
      const done = await importOne(db, post, work);
      if ("error" in done)
        result.failed.push({ sourceId: post.sourceId, title: post.title, reason: done.error! });
      else result.created.push({ id: done.saved.id, slug: done.saved.slug, title: post.title });
    } catch (error) {
      if (!(error instanceof SlugTakenError)) throw error;
      result.failed.push({
        sourceId: post.sourceId,
        title: post.title,
        reason: `the slug ${post.slug} is taken`,
      });
    }
    await onProgress?.(index + 1, plan.create.length);
    await yieldToRequests();
  }
  for (const image of work.cache.values())
    if (!("reason" in (await image))) result.images.rehosted++;
  return result;
}

/**
 * Where an old site's URL moved: the post imported with that path, while it is published.
 * WordPress's `/?p=123` is matched by its query; other paths with or without their final slash.
 */
export async function importedPostPath(db: Database, pathname: string, search: URLSearchParams) {
  const p = search.get("p");
  const paths =
    pathname === "/"
      ? p && /^\d+$/.test(p)
        ? [`/?p=${p}`]
        : []
      : [pathname, pathname.endsWith("/") ? pathname.slice(0, -1) : `${pathname}/`];
  if (paths.length === 0) return null;
  const [row] = rowsOf<{ slug: string }>(
    await db.execute(sql`
      select b.slug from imported_paths i join blog_posts b on b.id = i.post_id
      where i.path in (${sql.join(
        paths.map((path) => sql`${path}`),
        sql`, `,
      )}) and b.status = 'published'
      limit 1`),
  );
  return row?.slug ?? null;
}
