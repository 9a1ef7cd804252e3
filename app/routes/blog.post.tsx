import { data, redirect } from "react-router";

import { appContext } from "~/context";
import { isOwner } from "~/features/owner/index.server";
import { PostReader, postMeta } from "~/features/posts";
import { readPostView } from "~/features/posts/index.server";
import { siteOf } from "~/features/site";
import { activityPubLink, ResponsesSection, socialUrls } from "~/features/social";
import { readPostResponses } from "~/features/social/index.server";
import { SubscribeForm } from "~/features/subscribers";

import type { Route } from "./+types/blog.post";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  // Drafts and scheduled posts exist for the owner alone (whose pages no cache keeps).
  const read = await readPostView(db, params.slug, () => isOwner(request, context));
  if (read === null) return data({ post: null, related: [], responses: null }, { status: 404 });
  // A public post the owner deleted (in the trash): 410 Gone, which no cache keeps, so a Restore
  // shows at once.
  if ("gone" in read) return data({ post: null, related: [], responses: null }, { status: 410 });
  // The post's id (the original URLs) and every slug it had move to its slug, for good.
  if ("movedTo" in read) throw redirect(read.movedTo, 301);
  // Approved responses only, so the page is the same for everyone (and cached).
  const responses =
    read.post.status === "published" ? await readPostResponses(db, read.post.id) : null;
  return { ...read, responses };
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  const siteUrl = matches[0].loaderData.siteUrl;
  const post = loaderData?.post;
  const tags = postMeta({ site: siteOf(matches), siteUrl, post, segment: params.slug ?? "" });
  // A published post is an ActivityPub Article too (the fediverse finds it from the page).
  return post?.status === "published"
    ? tags.concat(activityPubLink(socialUrls(siteUrl).article(post.id)))
    : tags;
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PostReader post={loaderData.post} related={loaderData.related} />
      <ResponsesSection responses={loaderData.responses} />
      {/* At the end of each post; the same bytes for everyone, so the page stays cached. */}
      {loaderData.post ? <SubscribeForm /> : null}
    </>
  );
}
