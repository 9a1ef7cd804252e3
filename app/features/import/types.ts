/** The systems an export can come from. */
export type ImportSource = "wordpress" | "ghost" | "medium" | "markdown" | "devto";

/** Where a post stood on the old site. */
export type ImportedStatus = "published" | "draft" | "scheduled";

/**
 * One post read from an export, whatever wrote it: what the import needs to create the post,
 * to find it again on a second import (source + sourceId) and to answer its old URLs.
 */
export type ImportedPost = {
  source: ImportSource;
  /** The old system's own id (WordPress post id, Ghost id, Medium id, Markdown file path, dev.to id). */
  sourceId: string;
  /** The post's address on the old site, when the export names one. */
  oldUrl: string | null;
  /** The old site's paths that should answer 301 to the new post (`/?p=123`, `/slug/`…). */
  oldPaths: string[];
  title: string;
  slug: string;
  description: string;
  status: ImportedStatus;
  publishedAt: Date | null;
  updatedAt: Date | null;
  tags: string[];
  body: { format: "html" | "markdown"; text: string };
  canonicalUrl: string | null;
  /** The addresses of the post's copies elsewhere, when the export names them. */
  syndication?: string[];
  /** Absolute or site-relative addresses of the images the body shows, the cover first. */
  images: string[];
  /**
   * The image the old site showed above the post (Ghost's feature image, dev.to's cover,
   * WordPress's featured image), with its text when the export has one. The editor has no cover:
   * the import opens the post with it, unless the body shows it already.
   */
  cover?: { url: string; alt: string } | null;
};

/** An entry of an export that will not become a post, and why. */
export type SkippedEntry = { sourceId: string | null; title: string; reason: string };

/** What a parser read from one export file. */
export type ParsedExport = {
  source: ImportSource;
  posts: ImportedPost[];
  skipped: SkippedEntry[];
  /**
   * The image files of a zip or folder beside its posts, by their path in it: what a post links
   * relatively (this site's own Markdown export writes `![alt](photo.webp)` beside `index.md`).
   */
  attachments?: ReadonlyMap<string, Uint8Array>;
};
