import { pageMeta } from "~/features/site";

import { postPath } from "../publishing";
import type { PostView } from "./post-view";

type SiteOfPage = Pick<Parameters<typeof pageMeta>[0], "site" | "siteUrl">;

/**
 * A post page's title, description, share tags and BlogPosting JSON-LD; for no post (`segment`
 * named none), "Post not found", kept out of search engines.
 */
export function postMeta({
  site,
  siteUrl,
  post,
  segment,
}: SiteOfPage & { post: PostView | null | undefined; segment: string }) {
  if (!post) {
    return pageMeta({
      site,
      siteUrl,
      path: `/blog/${segment}`,
      title: `Post not found · ${site.name}`,
      description: "This post does not exist.",
      noindex: true,
    });
  }
  // A post first published elsewhere names that address: its canonical link, og:url, JSON-LD.
  const url = post.canonicalUrl ?? `${siteUrl}${postPath(post.slug)}`;
  const publishedAt = new Date(post.publishedAt);
  const published = publishedAt.toISOString();
  // Never before its publication (a post written, then scheduled), as the feeds say it.
  const modified = new Date(Math.max(publishedAt.getTime(), new Date(post.updatedAt).getTime()));
  const modifiedIso = modified.toISOString();
  return pageMeta({
    site,
    siteUrl,
    path: url,
    title: `${post.title} · ${site.name}`,
    description: post.description,
    share: {
      type: "article",
      publishedTime: published,
      modifiedTime: modifiedIso,
      tags: post.tags,
      image: post.shareImage,
    },
    // Drafts and scheduled posts are seen by the owner alone, and never indexed.
    noindex: post.status !== "published",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: post.title,
      description: post.description,
      datePublished: published,
      dateModified: modifiedIso,
      url,
      mainEntityOfPage: url,
      ...(post.tags.length > 0 ? { keywords: post.tags.join(", ") } : {}),
      author: { "@type": "Person", name: site.name, url: `${siteUrl}/` },
    },
  });
}
