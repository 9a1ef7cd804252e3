import { data } from "react-router";

import { LinkPage, LINK_TEXT } from "~/features/subscribers";
import { confirmLink } from "~/features/subscribers/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/subscribe.confirm";

/** The mailed link: shows its state and a button; a GET confirms nothing (mail scanners). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { state, status } = await confirmLink(request, context, false);
  return data({ state }, { status });
}

/** The button: confirms, if the link still holds. */
export async function action({ request, context }: Route.ActionArgs) {
  const { state, status } = await confirmLink(request, context, true);
  return data({ state }, { status });
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/subscribe/confirm",
    title: `${LINK_TEXT.confirm.title} · ${site.name}`,
    description: LINK_TEXT.confirm.ready,
    noindex: true,
  });
}

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  return <LinkPage kind="confirm" state={(actionData ?? loaderData).state} />;
}
