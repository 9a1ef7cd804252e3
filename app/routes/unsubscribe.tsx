import { data } from "react-router";

import { LinkPage, LINK_TEXT } from "~/features/subscribers";
import { unsubscribeLink } from "~/features/subscribers/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/unsubscribe";

/** A newsletter's footer link: shows a button; a GET unsubscribes no one (mail scanners). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { state, status } = await unsubscribeLink(request, context, false);
  return data({ state }, { status });
}

/**
 * The button, or RFC 8058's one-click POST (`List-Unsubscribe=One-Click`, sent by mail clients
 * with no cookie): unsubscribes at once, the link's signature the only authority.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { state, status } = await unsubscribeLink(request, context, true);
  return data({ state }, { status });
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/unsubscribe",
    title: `${LINK_TEXT.unsubscribe.title} · ${site.name}`,
    description: LINK_TEXT.unsubscribe.ready,
    noindex: true,
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return <LinkPage kind="unsubscribe" state={(actionData ?? loaderData).state} />;
}
