import type { ImportedPost, ParsedExport, SkippedEntry } from "./types";
import { TAG_LIMITS, isTag, tagOf } from "~/features/posts";

/** What the site holds that an import must not collide with. */
export type ImportContext = {
  /** Every slug taken or once taken by a post of this site. */
  takenSlugs: ReadonlySet<string>;
  /** `source:sourceId` of every post imported before, to its post's id. */
  imported: ReadonlyMap<string, number>;
  /** Every tag some post of this site already has. */
  existingTags: ReadonlySet<string>;
};

/** A post the import will create, under the slug and tags it will have here. */
export type PlannedPost = ImportedPost & {
  /** The slug asked for, when another post had it and the post gets `slug-2` instead. */
  collidedWith: string | null;
  /** Tags the site cannot hold (beyond its limit of tags per post, or no letter or digit). */
  droppedTags: string[];
};

/** The dry run's answer: what an import would do, nothing changed. */
export type ImportPlan = {
  source: ParsedExport["source"];
  create: PlannedPost[];
  skipped: SkippedEntry[];
  counts: { posts: number; published: number; drafts: number; scheduled: number; images: number };
  newTags: string[];
  collisions: { title: string; wanted: string; slug: string }[];
};

export const importKey = (post: Pick<ImportedPost, "source" | "sourceId">) =>
  `${post.source}:${post.sourceId}`;

function freeSlug(wanted: string, taken: Set<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function tagsFor(post: ImportedPost): { tags: string[]; dropped: string[] } {
  const tags: string[] = [];
  const dropped: string[] = [];
  for (const name of post.tags) {
    const tag = tagOf(name).slice(0, TAG_LIMITS.length).replace(/-+$/, "");
    if (tags.includes(tag)) continue;
    if (!isTag(tag) || tags.length >= TAG_LIMITS.perPost) dropped.push(name);
    else tags.push(tag);
  }
  return { tags, dropped };
}

/**
 * The dry run: which posts an export would create (and under which slug), which it skips and
 * why (imported before, the same post twice in the file, or what its parser refused).
 */
export function planImport(parsed: ParsedExport, context: ImportContext): ImportPlan {
  const taken = new Set(context.takenSlugs);
  const seen = new Set<string>();
  const create: PlannedPost[] = [];
  const skipped = [...parsed.skipped];
  const collisions: ImportPlan["collisions"] = [];
  for (const post of parsed.posts) {
    const key = importKey(post);
    if (context.imported.has(key)) {
      skipped.push({ sourceId: post.sourceId, title: post.title, reason: "imported before" });
      continue;
    }
    if (seen.has(key)) {
      skipped.push({
        sourceId: post.sourceId,
        title: post.title,
        reason: "the same post again in this file",
      });
      continue;
    }
    seen.add(key);
    const slug = freeSlug(post.slug, taken);
    taken.add(slug);
    if (slug !== post.slug) collisions.push({ title: post.title, wanted: post.slug, slug });
    const { tags, dropped } = tagsFor(post);
    create.push({
      ...post,
      slug,
      tags,
      collidedWith: slug === post.slug ? null : post.slug,
      droppedTags: dropped,
    });
  }
  const allTags = new Set(create.flatMap((post) => post.tags));
  return {
    source: parsed.source,
    create,
    skipped,
    counts: {
      posts: create.length,
      published: create.filter((p) => p.status === "published").length,
      drafts: create.filter((p) => p.status === "draft").length,
      scheduled: create.filter((p) => p.status === "scheduled").length,
      images: new Set(create.flatMap((p) => p.images)).size,
    },
    newTags: [...allTags].filter((tag) => !context.existingTags.has(tag)).sort(),
    collisions,
  };
}
