import { dateOf, readFrontMatter, string, tagsOf } from "./front-matter.server";
import { imagesOfMarkdown } from "./html-clean";
import type { ImportedPost, ParsedExport, SkippedEntry } from "./types";
import { postSlugOf } from "~/features/posts";

/**
 * One article as dev.to (Forem) writes it: its API's `/api/articles/{id}` and `/api/articles/me`
 * answers, and the `articles.json` of its account export (Settings → Account → Export content).
 * The export writes the article's own columns (Forem's `Exporter::Articles`): no `id` and no
 * `url` (its `path` names it), and the cover as `main_image` where the API says `cover_image`.
 */
type DevtoArticle = {
  id?: number | string;
  title?: string;
  description?: string | null;
  body_markdown?: string | null;
  published?: boolean;
  published_at?: string | null;
  published_timestamp?: string | null;
  edited_at?: string | null;
  slug?: string;
  path?: string | null;
  url?: string | null;
  canonical_url?: string | null;
  tag_list?: string[] | string | null;
  tags?: string[] | string | null;
  cached_tag_list?: string | null;
  /** The image shown above the article (as Ghost's `feature_image`). */
  cover_image?: string | null;
  main_image?: string | null;
};

/** A Liquid tag's argument as the address of the thing it embeds, or null. */
function liquidUrl(name: string, arg: string): string | null {
  const first = arg.split(/\s+/)[0] ?? "";
  if (/^https?:\/\//i.test(first)) return first;
  if (first === "") return null;
  switch (name) {
    case "github":
      return `https://github.com/${first}`;
    case "youtube":
      return `https://www.youtube.com/watch?v=${first.split(/[?&]/)[0]}`;
    case "vimeo":
      return `https://vimeo.com/${first}`;
    case "twitter":
    case "tweet":
      return `https://twitter.com/i/status/${first}`;
    case "gist":
      return `https://gist.github.com/${first}`;
    case "codesandbox":
      return `https://codesandbox.io/s/${first}`;
    case "stackblitz":
      return `https://stackblitz.com/edit/${first}`;
    case "link":
    case "post":
    case "user":
    case "tag":
      return `https://dev.to/${first.replace(/^\//, "")}`;
    default:
      return null;
  }
}

const FENCE = /(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[ \t]*$)/m;
const LIQUID = /\{%-?\s*(\w+)\s*([\s\S]*?)\s*-?%\}/g;

/**
 * dev.to's Liquid tags (`{% embed … %}`, `{% github … %}`, `{% youtube … %}`, `{% link … %}`…)
 * mean nothing here: each becomes a plain link to the thing it showed, `{% raw %}` keeps its
 * text, and a tag that names nothing to link to leaves nothing behind.
 */
export function liquidToLinks(markdown: string): string {
  // Fenced code keeps its text: a post about Jekyll shows its tags as they are.
  return markdown
    .split(FENCE)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(LIQUID, (_all, name: string, arg: string) => {
            const url = liquidUrl(name.toLowerCase(), arg.replace(/^["']|["']$/g, "").trim());
            return url ? `[${url}](${url})` : "";
          }),
    )
    .join("");
}

/** dev.to ends a slug with a few random characters (`my-post-4k2d`): the title's slug is kept. */
function slugOf(article: DevtoArticle, title: string): string {
  const slug = string(article.slug);
  const fromTitle = postSlugOf(title);
  if (slug && fromTitle && new RegExp(`^${fromTitle}-[a-z0-9]{1,6}$`).test(slug)) return fromTitle;
  return postSlugOf(slug || title);
}

/** dev.to names its own address as the canonical one when the author gave none. */
function canonicalOf(article: DevtoArticle, front: Record<string, unknown>): string | null {
  const given = string(front["canonical_url"]) || string(article.canonical_url);
  if (!given) return null;
  const own = string(article.url);
  const path = string(article.path);
  if (given === own || (path && given.endsWith(path))) return null;
  return given;
}

function postOf(article: DevtoArticle, id: string): ImportedPost {
  const { data: front, content } = readFrontMatter(article.body_markdown ?? "");
  const title = string(front["title"]) || string(article.title);
  const body = liquidToLinks(content)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const publishedAt =
    dateOf(article.published_at) ?? dateOf(article.published_timestamp) ?? dateOf(front["date"]);
  const published = article.published ?? (front["published"] === false ? false : !!publishedAt);
  const tags = [article.tag_list, article.tags, article.cached_tag_list, front["tags"]]
    .map(tagsOf)
    .find((list) => list.length > 0);
  const path = string(article.path);
  const cover = string(article.cover_image) || string(article.main_image);
  return {
    source: "devto",
    sourceId: id,
    oldUrl: string(article.url) || null,
    oldPaths: path ? [path] : [],
    title,
    slug: slugOf(article, title),
    description: string(front["description"]) || string(article.description),
    status: published ? "published" : "draft",
    publishedAt,
    updatedAt: dateOf(article.edited_at),
    tags: tags ?? [],
    body: { format: "markdown", text: body },
    canonicalUrl: canonicalOf(article, front),
    images: [...new Set([...(cover ? [cover] : []), ...imagesOfMarkdown(body)])],
    cover: cover ? { url: cover, alt: "" } : null,
  };
}

/** The articles of a dev.to JSON: an array (export, `/api/articles/me`) or one article. */
function articlesOf(json: unknown): DevtoArticle[] {
  const list = Array.isArray(json) ? json : [json];
  return list.filter((item): item is DevtoArticle => typeof item === "object" && item !== null);
}

/** dev.to's account export (`articles.json`) or its API's article JSON as posts. */
export function parseDevto(source: string): ParsedExport {
  const posts: ImportedPost[] = [];
  const skipped: SkippedEntry[] = [];
  for (const article of articlesOf(JSON.parse(source))) {
    // The account export names an article by its path (`/user/slug`), the API by its id.
    const id = article.id == null ? string(article.path) || null : String(article.id);
    const title = string(article.title) || "(untitled)";
    if (!id) {
      skipped.push({ sourceId: null, title, reason: "the article has no dev.to id or path" });
      continue;
    }
    if (typeof article.body_markdown !== "string") {
      skipped.push({ sourceId: id, title, reason: "the article has no Markdown body" });
      continue;
    }
    try {
      posts.push(postOf(article, id));
    } catch (error) {
      const reason = `its front matter cannot be read (${(error as Error).message.split("\n")[0]})`;
      skipped.push({ sourceId: id, title, reason });
    }
  }
  return { source: "devto", posts, skipped };
}
