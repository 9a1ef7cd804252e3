import { PostEditor } from "~/components/editor/post-editor";
import { pageMeta } from "~/lib/seo";
import { siteOf } from "~/lib/use-site";
import { warmHighlighter } from "~/lib/highlight.server";
import { requireOwnerPage } from "~/lib/session.server";

import type { Route } from "./+types/blog.new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwnerPage(request, context);
  warmHighlighter();
  return null;
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/blog/new",
    title: `New post · ${site.name}`,
    description: "Write a new post.",
    noindex: true,
  });
}

export default function NewPost() {
  return <PostEditor />;
}
