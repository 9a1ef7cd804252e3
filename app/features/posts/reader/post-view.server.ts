import type { Database } from "../../../../database/db.server";
import { shareImageOf } from "~/features/cards";
import { excerpt } from "~/features/site";

import { postPath } from "../publishing";
import { findPostByPath, relatedPosts } from "../read.server";
import { renderPostHtml } from "../render.server";
import { loadPostSanitizer } from "../sanitize.server";
import { wasPublicBeforeTrash } from "../trash.server";
import type { PostView, RelatedPost } from "./post-view";

export type PostViewRead =
  | { post: PostView; related: RelatedPost[] }
  /** The segment is the post's id or an old slug: the reader goes on to this path. */
  | { movedTo: string }
  /** The segment named a public post that is now in the trash: 410 Gone, not a redirect. */
  | { gone: true }
  /**
   * No post has or had the segment (a trashed draft or scheduled post neither), or it is not
   * public and the reader is not the owner.
   */
  | null;

/**
 * The post `/blog/{segment}` shows, ready to read. Drafts and scheduled posts exist for the owner
 * alone: `ownerReads` is asked only for one of those.
 */
export async function readPostView(
  db: Database,
  segment: string,
  ownerReads: () => Promise<boolean>,
): Promise<PostViewRead> {
  const found = await findPostByPath(db, segment);
  if (!found) return (await wasPublicBeforeTrash(db, segment)) ? { gone: true } : null;
  if (found.post.status !== "published" && !(await ownerReads())) return null;
  if (found.moved) return { movedTo: postPath(found.post.slug) };
  const { post } = found;
  // Stored HTML was cleaned when saved; it is cleaned again here, whatever reached the table,
  // then framed for reading (anchors, code block heads, responsive images).
  const [sanitizePostHtml, related] = await Promise.all([
    loadPostSanitizer(),
    post.status === "published" ? relatedPosts(db, post.id) : Promise.resolve([]),
  ]);
  const content = sanitizePostHtml(post.content);
  return {
    post: {
      id: post.id,
      slug: post.slug,
      title: post.title,
      description: post.description?.trim() || excerpt(content),
      status: post.status,
      // A draft never published shows when it was written.
      publishedAt: post.publishedAt ?? post.createdAt,
      updatedAt: post.updatedAt,
      tags: post.tags,
      content: renderPostHtml(content),
      contentEn: post.contentEn?.trim() ? renderPostHtml(sanitizePostHtml(post.contentEn)) : null,
      shareImage: post.shareCard ? shareImageOf(post.shareCard) : null,
      canonicalUrl: post.canonicalUrl,
      syndication: post.syndication,
    },
    related,
  };
}
