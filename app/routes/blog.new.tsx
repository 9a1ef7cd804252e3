import { PostEditor } from "~/components/editor/post-editor";
import { pageMeta } from "~/lib/seo";
import { requireOwnerPage } from "~/lib/session.server";
import { site } from "~/site.config";

import type { Route } from "./+types/blog.new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwnerPage(request, context);
  return null;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
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
