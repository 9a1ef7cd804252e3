import { ArrowLeft, Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import katexStylesheet from "katex/dist/katex.min.css?url";

import { attachContentActions, useIsOwner, useSite } from "~/features/site";

import { postPath } from "../publishing";
import { TagLinks } from "../tag-links";
import { SyndicationLinks } from "./syndication-links";
import { isHiddenVersion, PostDetails, UnpublishedNote, versionsOf } from "./post-details";
import type { PostView, RelatedPost } from "./post-view";
import { RelatedPosts } from "./related-posts";
import { TableOfContents } from "./table-of-contents";

/**
 * A post's page: its title, date, tags, table of contents, text (in Spanish, or in English when
 * it has that version and the reader asks), and related posts; "Post not found" without one.
 */
export function PostReader({ post, related }: { post: PostView | null; related: RelatedPost[] }) {
  const [english, setEnglish] = useState(false);
  const { body, announcement } = useContentActions(post?.id);

  if (!post) {
    return (
      <div className="py-12">
        <BackToBlog />
        <h1 className="p-name mt-6 text-3xl font-bold text-slate-900 dark:text-white">
          Post not found
        </h1>
      </div>
    );
  }

  const showEnglish = english && post.contentEn !== null;
  const shown = showEnglish ? post.contentEn! : post.content;
  const other = showEnglish ? post.content : post.contentEn;
  const versions = versionsOf(post);
  return (
    // An h-entry (microformats2) for Webmention receivers and IndieWeb readers.
    <article className="h-entry mx-auto max-w-3xl py-12">
      {/* KaTeX's stylesheet (and so its fonts) on a post with math only; React puts it in the head. */}
      {post.content.hasMath || post.contentEn?.hasMath ? (
        <link rel="stylesheet" href={katexStylesheet} precedence="katex" />
      ) : null}
      <EntryAuthor path={postPath(post.slug)} />
      <div className="flex items-center justify-between">
        <BackToBlog />
        <EditLink postId={post.id} />
      </div>
      <h1 className="p-name mt-6 text-3xl font-bold break-words text-slate-900 sm:text-4xl dark:text-white">
        {post.title}
      </h1>
      <PostDetails
        post={post}
        versions={versions}
        showEnglish={showEnglish}
        onSwitch={() => setEnglish((on) => !on)}
      />
      {post.tags.length > 0 ? <TagLinks tags={post.tags} className="mt-4" /> : null}
      <SyndicationLinks urls={post.syndication} />
      {post.status !== "published" ? <UnpublishedNote post={post} /> : null}
      <hr className="my-8 border-slate-200 dark:border-slate-800" />
      {versions.map(({ key, rendered }) =>
        rendered.toc.length > 0 ? (
          <TableOfContents
            key={key}
            version={key}
            hidden={isHiddenVersion(key, showEnglish)}
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
        className="e-content post-body prose prose-slate max-w-none break-words dark:prose-invert prose-a:text-sky-800 dark:prose-a:text-sky-300"
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

/**
 * Copy buttons and heading links in the server's markup (app/features/site/content-actions.ts),
 * attached to the post's body once per post, and what they last said for screen readers.
 */
function useContentActions(postId: number | undefined) {
  const body = useRef<HTMLDivElement>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (!body.current) return;
    return attachContentActions(body.current, (text) => {
      // Cleared first, so saying the same thing twice is announced twice.
      setAnnouncement("");
      requestAnimationFrame(() => setAnnouncement(text));
    });
  }, [postId]);
  return { body, announcement };
}

const backLink =
  "inline-flex items-center gap-2 rounded-lg px-3 py-2 -ml-3 font-medium text-sky-800 hover:bg-sky-50 dark:text-sky-300 dark:hover:bg-slate-900";

/** The entry's URL and author (the owner's h-card), for parsers only: nothing to see. */
function EntryAuthor({ path }: { path: string }) {
  const site = useSite();
  return (
    <div hidden>
      <data className="u-url" value={path} />
      <span className="p-author h-card">
        <data className="p-name" value={site.name} />
        <data className="u-url" value="/" />
      </span>
    </div>
  );
}

function BackToBlog() {
  return (
    <Link to="/blog" className={backLink}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Blog
    </Link>
  );
}

/** The owner's way into the editor; nothing for visitors. */
function EditLink({ postId }: { postId: number }) {
  const owner = useIsOwner();
  if (!owner) return null;
  return (
    <Link
      to={`/blog/${postId}/edit`}
      className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <Pencil aria-hidden="true" className="size-4" />
      Edit
    </Link>
  );
}
