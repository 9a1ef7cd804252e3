import { dateOf, readFrontMatter, string, tagsOf } from "./front-matter.server";
import { imagesOfMarkdown } from "./html-clean";
import type { ImportedPost, ParsedExport, SkippedEntry } from "./types";
import { postSlugOf } from "~/features/posts";
import { markdownToHtml } from "~/features/posts/index.markdown";

/** One Markdown file of a folder or zip: its path inside and its text. */
export type MarkdownFile = { name: string; text: string };

/** Hugo's shortcodes (`{{< youtube id >}}`) and Liquid tags (`{% include x %}`): no Markdown. */
const TEMPLATE_TAG = /^[ \t]*(?:\{\{[<%][\s\S]*?[%>]\}\}|\{%[\s\S]*?%\})[ \t]*$\n?/gm;
const MORE = /^[ \t]*<!--\s*more\s*-->[ \t]*$\n?/gm;

/** A file's own name without its folder, extension and Jekyll's `YYYY-MM-DD-` start. */
function nameSlugOf(name: string): { slug: string; date: Date | null } {
  const base = name
    .split("/")
    .pop()!
    .replace(/\.(?:md|markdown|mdx)$/i, "");
  const dated = /^(\d{4}-\d\d-\d\d)-(.+)$/.exec(base);
  const slug = dated
    ? dated[2]!
    : base === "index"
      ? (name.split("/").slice(-2, -1)[0] ?? "")
      : base;
  return { slug, date: dated ? new Date(`${dated[1]}T00:00:00Z`) : null };
}

function postOf(file: MarkdownFile, data: Record<string, unknown>, content: string): ImportedPost {
  const fromName = nameSlugOf(file.name);
  const title = string(data["title"]) || fromName.slug;
  const body = content.replace(MORE, "").replace(TEMPLATE_TAG, "").trim();
  const draft = data["draft"] === true || data["published"] === false;
  return {
    source: "markdown",
    sourceId: file.name,
    oldUrl: null,
    oldPaths: [],
    title,
    slug: postSlugOf(string(data["slug"]) || fromName.slug || title),
    description: string(data["description"]) || string(data["summary"]) || string(data["excerpt"]),
    status: draft ? "draft" : "published",
    publishedAt: dateOf(data["date"]) ?? dateOf(data["pubDate"]) ?? fromName.date,
    updatedAt: dateOf(data["lastmod"]) ?? dateOf(data["updated"]) ?? dateOf(data["updatedDate"]),
    tags: tagsOf(data["tags"]),
    // As the editor's Markdown paste makes it: footnotes, math and GitHub's alerts included.
    body: { format: "html", text: markdownToHtml(body) },
    canonicalUrl: string(data["canonical_url"]) || string(data["canonicalURL"]) || null,
    syndication: Array.isArray(data["syndication"])
      ? data["syndication"].map((url) => string(url)).filter(Boolean)
      : [],
    images: imagesOfMarkdown(body),
  };
}

/** Markdown files with front matter (Hugo, Jekyll, Astro, Eleventy) as posts. */
export function parseMarkdown(files: MarkdownFile[]): ParsedExport {
  const posts: ImportedPost[] = [];
  const skipped: SkippedEntry[] = [];
  for (const file of files) {
    const base = file.name.split("/").pop()!;
    if (base.startsWith("_index.")) {
      skipped.push({
        sourceId: file.name,
        title: base,
        reason: "a section's list page, not a post",
      });
      continue;
    }
    let parsed;
    try {
      parsed = readFrontMatter(file.text);
    } catch (error) {
      const reason = `its front matter cannot be read (${(error as Error).message.split("\n")[0]})`;
      skipped.push({ sourceId: file.name, title: base, reason });
      continue;
    }
    if (parsed.content.trim() === "") {
      skipped.push({ sourceId: file.name, title: base, reason: "no text" });
      continue;
    }
    posts.push(postOf(file, parsed.data, parsed.content));
  }
  return { source: "markdown", posts, skipped };
}
