import { cleanGhostHtml, imagesOfHtml } from "./html-clean";
import type { ImportedPost, ImportedStatus, ParsedExport, SkippedEntry } from "./types";
import { postSlugOf } from "~/features/posts";

type GhostPost = {
  id: string;
  title?: string;
  slug?: string;
  html?: string | null;
  type?: string;
  page?: boolean | number;
  status?: string;
  feature_image?: string | null;
  feature_image_alt?: string | null;
  custom_excerpt?: string | null;
  published_at?: string | null;
  updated_at?: string | null;
  canonical_url?: string | null;
};
type GhostData = {
  posts?: GhostPost[];
  tags?: { id: string; name: string; visibility?: string }[];
  posts_tags?: { post_id: string; tag_id: string; sort_order?: number }[];
  posts_meta?: { post_id: string; meta_description?: string | null }[];
};

const STATUS: Record<string, ImportedStatus> = {
  published: "published",
  scheduled: "scheduled",
  draft: "draft",
};

const dateOf = (value: string | null | undefined) => (value ? new Date(value) : null);

/** The `data` of a Ghost export: `{db: [{meta, data}]}` (Ghost 1 and later) or `{meta, data}`. */
function dataOf(json: unknown): GhostData {
  const root = json as { db?: { data?: GhostData }[]; data?: GhostData };
  const data = root.db?.[0]?.data ?? root.data;
  if (!data || !Array.isArray(data.posts)) {
    throw new Error("This is not a Ghost export: it has no posts table.");
  }
  return data;
}

function tagsByPost(data: GhostData): Map<string, string[]> {
  const names = new Map((data.tags ?? []).map((tag) => [tag.id, tag] as const));
  const byPost = new Map<string, string[]>();
  const links = [...(data.posts_tags ?? [])].sort(
    (a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0),
  );
  for (const link of links) {
    const tag = names.get(link.tag_id);
    // Internal tags (#name) organize a Ghost site's templates, not its readers' topics.
    if (!tag || tag.visibility === "internal" || tag.name.startsWith("#")) continue;
    byPost.set(link.post_id, [...(byPost.get(link.post_id) ?? []), tag.name]);
  }
  return byPost;
}

/** A Ghost JSON export (Settings → Labs → Export) as posts. */
export function parseGhost(source: string): ParsedExport {
  const data = dataOf(JSON.parse(source));
  const tags = tagsByPost(data);
  const descriptions = new Map((data.posts_meta ?? []).map((m) => [m.post_id, m.meta_description]));
  const posts: ImportedPost[] = [];
  const skipped: SkippedEntry[] = [];
  for (const post of data.posts ?? []) {
    const title = post.title ?? "";
    const isPage = post.type ? post.type !== "post" : Boolean(post.page);
    if (isPage) {
      skipped.push({ sourceId: post.id, title, reason: "a page, not a post" });
      continue;
    }
    const status = STATUS[post.status ?? ""];
    if (!status) {
      skipped.push({ sourceId: post.id, title, reason: `status "${post.status}"` });
      continue;
    }
    const html = cleanGhostHtml(post.html ?? "");
    const slug = postSlugOf(post.slug || title);
    posts.push({
      source: "ghost",
      sourceId: post.id,
      oldUrl: null,
      oldPaths: post.slug ? [`/${post.slug}/`] : [],
      title,
      slug,
      description: post.custom_excerpt ?? descriptions.get(post.id) ?? "",
      status,
      publishedAt: dateOf(post.published_at),
      updatedAt: dateOf(post.updated_at),
      tags: tags.get(post.id) ?? [],
      body: { format: "html", text: html },
      canonicalUrl: post.canonical_url ?? null,
      images: [
        ...new Set([...(post.feature_image ? [post.feature_image] : []), ...imagesOfHtml(html)]),
      ],
      cover: post.feature_image
        ? { url: post.feature_image, alt: post.feature_image_alt ?? "" }
        : null,
    });
  }
  return { source: "ghost", posts, skipped };
}
