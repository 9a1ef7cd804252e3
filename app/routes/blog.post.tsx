import { ArrowLeft, Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Link, redirect } from "react-router";

import { useIsOwner } from "~/features/site";
import { TagLinks } from "~/features/posts";
import { appContext } from "~/context";
import { attachContentActions } from "~/features/site";
import { formatDateTime, formatLongDate } from "~/lib/format";
import { postPath, PUBLISH_TEXT } from "~/features/posts";
import { renderPostHtml, type RenderedPost } from "~/features/posts/index.server";
import { readingTimeText } from "~/features/posts";
import { loadPostSanitizer } from "~/features/posts/index.server";
import { excerpt, pageMeta } from "~/features/site";
import { siteOf } from "~/features/site";
import { isOwner } from "~/features/owner/index.server";
import { findPostByPath, relatedPosts } from "~/features/posts/index.server";

import type { Route } from "./+types/blog.post";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const found = await findPostByPath(db, params.slug);
  // Drafts and scheduled posts exist for the owner alone (whose pages no cache keeps).
  const visible =
    found !== null && (found.post.status === "published" || (await isOwner(request, context)));
  if (!found || !visible) return data({ post: null, related: [] }, { status: 404 });
  // The post's id (the original URLs) and every slug it had move to its slug, for good.
  if (found.moved) throw redirect(postPath(found.post.slug), 301);
  const { post } = found;
  // Stored HTML was cleaned when saved; it is cleaned again here, whatever reached the table,
  // then framed for reading (anchors, code block heads, responsive images).
  const [sanitizePostHtml, related] = await Promise.all([
    loadPostSanitizer(),
    post.status === "published" ? relatedPosts(db, post.id) : Promise.resolve([]),
  ]);
  const content = sanitizePostHtml(post.content);
  const rendered = renderPostHtml(content);
  const english: RenderedPost | null = post.contentEn?.trim()
    ? renderPostHtml(sanitizePostHtml(post.contentEn))
    : null;
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
      content: rendered,
      contentEn: english,
    },
    related,
  };
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  const site = siteOf(matches);
  const siteUrl = matches[0].loaderData.siteUrl;
  const post = loaderData?.post;
  if (!post) {
    return pageMeta({
      site,
      siteUrl,
      path: `/blog/${params.slug ?? ""}`,
      title: `Post not found · ${site.name}`,
      description: "This post does not exist.",
      noindex: true,
    });
  }
  const path = postPath(post.slug);
  const published = new Date(post.publishedAt).toISOString();
  const modified = new Date(post.updatedAt).toISOString();
  return pageMeta({
    site,
    siteUrl,
    path,
    title: `${post.title} · ${site.name}`,
    description: post.description,
    share: { type: "article", publishedTime: published, modifiedTime: modified, tags: post.tags },
    // Drafts and scheduled posts are seen by the owner alone, and never indexed.
    noindex: post.status !== "published",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: post.title,
      description: post.description,
      datePublished: published,
      dateModified: modified,
      url: `${siteUrl}${path}`,
      mainEntityOfPage: `${siteUrl}${path}`,
      ...(post.tags.length > 0 ? { keywords: post.tags.join(", ") } : {}),
      author: { "@type": "Person", name: site.name, url: `${siteUrl}/` },
    },
  });
}

const backLink =
  "inline-flex items-center gap-2 rounded-lg px-3 py-2 -ml-3 font-medium text-sky-800 hover:bg-sky-50 dark:text-sky-300 dark:hover:bg-slate-900";

function BackToBlog() {
  return (
    <Link to="/blog" className={backLink}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Blog
    </Link>
  );
}

export default function PostReader({ loaderData }: Route.ComponentProps) {
  const { post, related } = loaderData;
  const [english, setEnglish] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const owner = useIsOwner();
  const body = useRef<HTMLDivElement>(null);

  // Copy buttons and heading links in the server's markup (app/features/site/content-actions.ts).
  useEffect(() => {
    if (!body.current) return;
    return attachContentActions(body.current, (text) => {
      // Cleared first, so saying the same thing twice is announced twice.
      setAnnouncement("");
      requestAnimationFrame(() => setAnnouncement(text));
    });
  }, [post?.id]);

  if (!post) {
    return (
      <div className="py-12">
        <BackToBlog />
        <h1 className="mt-6 text-3xl font-bold text-slate-900 dark:text-white">Post not found</h1>
      </div>
    );
  }

  const showEnglish = english && post.contentEn !== null;
  const shown = showEnglish ? post.contentEn! : post.content;
  const other = showEnglish ? post.content : post.contentEn;
  // Both versions' contents and reading times are in the markup, one hidden, so the switch works
  // on the server's page too (app/features/site/site-script.ts swaps them, and the body with the template).
  const versions = [
    { key: "es", rendered: post.content },
    ...(post.contentEn ? [{ key: "en", rendered: post.contentEn }] : []),
  ];
  const hiddenVersion = (key: string) => (key === "en") !== showEnglish;
  return (
    <article className="mx-auto max-w-3xl py-12">
      <div className="flex items-center justify-between">
        <BackToBlog />
        {owner ? (
          <Link
            to={`/blog/${post.id}/edit`}
            className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Pencil aria-hidden="true" className="size-4" />
            Edit
          </Link>
        ) : null}
      </div>
      <h1 className="mt-6 text-3xl font-bold break-words text-slate-900 sm:text-4xl dark:text-white">
        {post.title}
      </h1>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <time
          dateTime={new Date(post.publishedAt).toISOString()}
          className="text-slate-600 dark:text-slate-400"
        >
          {formatLongDate(post.publishedAt)}
        </time>
        {versions.map(({ key, rendered }) => (
          <span
            key={key}
            data-version={key}
            hidden={hiddenVersion(key)}
            className="text-slate-600 dark:text-slate-400"
          >
            {readingTimeText(rendered.readingMinutes)}
          </span>
        ))}
        {post.contentEn !== null ? (
          <>
            <span className="rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-900 dark:bg-sky-900 dark:text-sky-100">
              English
            </span>
            <button
              type="button"
              role="switch"
              aria-checked={showEnglish}
              onClick={() => setEnglish((on) => !on)}
              data-version-switch=""
              className="group inline-flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-300"
            >
              {/* Drawn from aria-checked, so it follows the switch with or without React. */}
              <span
                aria-hidden="true"
                className="relative inline-block h-6 w-11 rounded-full bg-slate-300 transition-colors group-aria-checked:bg-sky-700 dark:bg-slate-700 dark:group-aria-checked:bg-sky-400"
              >
                <span className="absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform group-aria-checked:translate-x-5" />
              </span>
              Read in English
            </button>
          </>
        ) : null}
      </div>
      {post.tags.length > 0 ? <TagLinks tags={post.tags} className="mt-4" /> : null}
      {post.status !== "published" ? (
        <p
          role="note"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {post.status === "draft"
            ? `${PUBLISH_TEXT.draft}: only you can see this post.`
            : `${PUBLISH_TEXT.scheduled}: this post goes public on ${formatDateTime(post.publishedAt)}. Only you can see it until then.`}
        </p>
      ) : null}
      <hr className="my-8 border-slate-200 dark:border-slate-800" />
      {versions.map(({ key, rendered }) =>
        rendered.toc.length > 0 ? (
          <TableOfContents
            key={key}
            version={key}
            hidden={hiddenVersion(key)}
            entries={rendered.toc}
          />
        ) : null,
      )}
      <div
        ref={body}
        data-testid="post-content"
        data-content-actions=""
        data-version-body=""
        lang={showEnglish ? "en" : undefined}
        className="post-body prose prose-slate max-w-none break-words dark:prose-invert prose-a:text-sky-800 dark:prose-a:text-sky-300"
        dangerouslySetInnerHTML={{ __html: shown.html }}
      />
      {other ? (
        // The other version, inert until the switch shows it.
        <template data-version-other="" dangerouslySetInnerHTML={{ __html: other.html }} />
      ) : null}
      <p role="status" data-announce="" className="sr-only">
        {announcement}
      </p>
      {related.length > 0 ? <RelatedPosts posts={related} /> : null}
    </article>
  );
}

/** The post's h2 and h3 headings as links, h3 nested under the h2 before them. */
function TableOfContents({
  entries,
  version,
  hidden,
}: {
  entries: RenderedPost["toc"];
  version: string;
  hidden: boolean;
}) {
  return (
    <nav
      aria-labelledby={`toc-heading-${version}`}
      data-version={version}
      hidden={hidden}
      className="mb-8 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2
        id={`toc-heading-${version}`}
        className="text-sm font-semibold text-slate-900 dark:text-white"
      >
        Contents
      </h2>
      <ol className="mt-2 space-y-1 text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className={entry.level === 3 ? "ml-4" : undefined}>
            <a
              href={`#${entry.id}`}
              className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
            >
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Up to three other posts: those sharing the most tags, then the newest. */
function RelatedPosts({ posts }: { posts: Route.ComponentProps["loaderData"]["related"] }) {
  return (
    <aside
      aria-labelledby="related-heading"
      className="mt-12 border-t border-slate-200 pt-8 dark:border-slate-800"
    >
      <h2 id="related-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Related posts
      </h2>
      <ul className="mt-4 space-y-3">
        {posts.map((post) => (
          <li key={post.slug}>
            <Link
              to={postPath(post.slug)}
              className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
            >
              {post.title}
            </Link>
            <time
              dateTime={new Date(post.publishedAt).toISOString()}
              className="ml-2 text-sm text-slate-600 dark:text-slate-400"
            >
              {formatLongDate(post.publishedAt)}
            </time>
          </li>
        ))}
      </ul>
    </aside>
  );
}
