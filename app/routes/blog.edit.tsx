import { useEffect } from "react";
import { data, useNavigate } from "react-router";

import { PostEditor } from "~/features/posts/index.editor";
import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { EDITOR_TEXT } from "~/features/posts";
import { pageMeta, siteOf } from "~/features/site";
import {
  editablePostOf,
  getPost,
  headRevision,
  warmHighlighter,
} from "~/features/posts/index.server";

import type { Route } from "./+types/blog.edit";

export async function loader({ context, params }: Route.LoaderArgs) {
  warmHighlighter();
  const id = parseSerialId(params.id);
  const { db } = context.get(appContext);
  const post = id === null ? null : await getPost(db, id);
  if (!post) return data({ post: null }, { status: 404 });
  const head = await headRevision(db, post.id);
  return { post: { ...(await editablePostOf(post)), revision: head?.id ?? null } };
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
