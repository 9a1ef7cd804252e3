import { PostEditor } from "~/features/posts/index.editor";
import { pageMeta, siteOf } from "~/features/site";
import { warmHighlighter } from "~/features/posts/index.server";

import type { Route } from "./+types/blog.new";

export async function loader() {
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
