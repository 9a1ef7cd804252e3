import { escapeHtml, imagesOfHtml, textOf } from "./html-clean";
import type { ImportedPost, ParsedExport, SkippedEntry } from "./types";
import { postSlugOf } from "~/features/posts";

/** One HTML file of a Medium export's `posts/` folder. */
export type MediumFile = { name: string; html: string };

const first = (html: string, pattern: RegExp) => pattern.exec(html)?.[1] ?? null;

/** The body section, from its opening tag to the footer Medium closes every post with. */
function bodyOf(html: string): string {
  const start = html.search(/<section\b[^>]*\bdata-field="body"[^>]*>/);
  if (start < 0) return "";
  const end = html.indexOf("<footer>", start);
  const inner = html.slice(start, end < 0 ? undefined : end);
  return inner
    .replace(/^<section\b[^>]*>/, "")
    .replace(/<\/section>\s*$/, "")
    .replace(/<div class="section-divider">[\s\S]*?<\/div>/g, "");
}

/** Medium writes a code block's lines as `<br>`s inside `<pre>`, indented with the markup. */
function codeBlocks(html: string): string {
  return html.replace(
    /<pre\b[^>]*>\s*(?:<code\b[^>]*>)?([\s\S]*?)(?:<\/code>)?\s*<\/pre>/g,
    (_all, code: string) => {
      const lines = code.replace(/<br\s*\/?>/g, "\n").replace(/<[^>]*>/g, "");
      const text = textLines(lines);
      return `<pre><code>${escapeHtml(text)}</code></pre>`;
    },
  );
}

function textLines(code: string): string {
  const decoded = code
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return decoded.trim().replace(/\n[ \t]+$/gm, "\n");
}

/** Medium's post id: the hexadecimal end of its URLs (`/p/abc123`, `/@user/slug-abc123`). */
function mediumId(html: string, canonical: string | null): string | null {
  return (
    first(html, /https:\/\/medium\.com\/p\/([0-9a-f]+)/) ??
    first(canonical ?? "", /-([0-9a-f]{8,})$/)
  );
}

function postOf(file: MediumFile, id: string, canonical: string | null): ImportedPost {
  const { html } = file;
  const title = textOf(first(html, /<h1 class="p-name">([\s\S]*?)<\/h1>/) ?? "");
  const body = codeBlocks(bodyOf(html)).trim();
  const published = first(html, /<time class="dt-published" datetime="([^"]+)"/);
  const canonicalPath = canonical ? new URL(canonical).pathname : null;
  const canonicalSlug = canonicalPath
    ? canonicalPath
        .split("/")
        .pop()!
        .replace(/-[0-9a-f]{8,}$/, "")
    : "";
  const draft = file.name.split("/").pop()!.startsWith("draft_") || !published;
  return {
    source: "medium",
    sourceId: id,
    oldUrl: canonical,
    oldPaths: [...(canonicalPath ? [canonicalPath] : []), `/p/${id}`],
    title,
    slug: postSlugOf(canonicalSlug || title),
    description: textOf(
      first(html, /<section data-field="subtitle"[^>]*>([\s\S]*?)<\/section>/) ?? "",
    ),
    status: draft ? "draft" : "published",
    publishedAt: published ? new Date(published) : null,
    updatedAt: null,
    tags: [...html.matchAll(/<a [^>]*class="p-tag"[^>]*>([\s\S]*?)<\/a>/g)].map((m) =>
      textOf(m[1]!),
    ),
    body: { format: "html", text: body },
    canonicalUrl: null,
    images: imagesOfHtml(body),
  };
}

/** The HTML posts of a Medium export (its `posts/` folder) as posts. */
export function parseMedium(files: MediumFile[]): ParsedExport {
  const posts: ImportedPost[] = [];
  const skipped: SkippedEntry[] = [];
  for (const file of files) {
    const canonical = first(file.html, /<a href="([^"]+)" class="p-canonical"/);
    const id = mediumId(file.html, canonical);
    const title = textOf(first(file.html, /<h1 class="p-name">([\s\S]*?)<\/h1>/) ?? file.name);
    if (!id) {
      skipped.push({ sourceId: null, title, reason: `${file.name} names no Medium post id` });
      continue;
    }
    if (!/<section\b[^>]*\bdata-field="body"/.test(file.html)) {
      skipped.push({ sourceId: id, title, reason: `${file.name} has no body` });
      continue;
    }
    posts.push(postOf(file, id, canonical));
  }
  return { source: "medium", posts, skipped };
}
