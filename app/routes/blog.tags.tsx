import { data } from "react-router";

import { appContext } from "~/context";
import { TagIndex } from "~/features/posts";
import { listTags } from "~/features/posts/index.server";
import { pageMeta, siteOf } from "~/features/site";
import { errorMessage } from "~/lib/log.server";

import type { Route } from "./+types/blog.tags";

/** `/blog/tags`: every tag of a published post, with how many posts have it. */
export async function loader({ context }: Route.LoaderArgs) {
  try {
    return { tags: await listTags(context.get(appContext).db) };
  } catch (error) {
    console.error("Error fetching tags:", errorMessage(error));
    return data({ tags: [] }, { status: 500 });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/blog/tags",
    title: `Tags · Blog · ${site.name}`,
    description: `The topics ${site.name} writes about.`,
  });
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  return <TagIndex tags={loaderData.tags} />;
}
