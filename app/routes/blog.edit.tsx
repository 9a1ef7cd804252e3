import { useEffect } from "react";
import { data, useNavigate } from "react-router";

import { PostEditor } from "~/features/posts/index.editor";
import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { EDITOR_TEXT } from "~/features/posts";
import { pageMeta } from "~/features/site";
import { siteOf } from "~/features/site";
import { loadWriteSanitizer } from "~/features/posts/index.server";
import { warmHighlighter } from "~/features/posts/index.server";
import { getPost } from "~/features/posts/index.server";

import type { Route } from "./+types/blog.edit";

export async function loader({ context, params }: Route.LoaderArgs) {
  warmHighlighter();
  const id = parseSerialId(params.id);
  const post = id === null ? null : await getPost(context.get(appContext).db, id);
  if (!post) return data({ post: null }, { status: 404 });
  // Sanitized on save, and again here: the editor renders it, so a row written around the
  // API (by hand, or by an older version) must not run in the owner's browser either. The
  // write sanitizer also takes the highlighter's tokens off: a code block comes back as its
  // language and text, which is what the editor edits (and the server highlights again).
  // content_en is never edited here.
  const sanitizePostHtml = await loadWriteSanitizer();
  return {
    post: {
      id: post.id,
      title: post.title,
      description: post.description ?? "",
      content: sanitizePostHtml(post.content),
      slug: post.slug,
      tags: post.tags,
      status: post.status,
      publishedAt: post.publishedAt?.toISOString() ?? null,
    },
  };
}

export function meta({ matches, params, loaderData }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: `/blog/${params.id}/edit`,
    title: `${loaderData?.post ? `Edit: ${loaderData.post.title}` : "Edit post"} · ${site.name}`,
    description: "Edit a post.",
    noindex: true,
  });
}

export default function EditPost({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const missing = loaderData.post === null;
  useEffect(() => {
    if (!missing) return;
    window.alert(EDITOR_TEXT.loadFailed);
    navigate("/blog", { replace: true });
  }, [missing, navigate]);
  if (!loaderData.post) return null;
  return <PostEditor key={loaderData.post.id} post={loaderData.post} />;
}
