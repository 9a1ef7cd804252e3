import { data } from "react-router";

import {
  SubscribeDone,
  SubscribeForm,
  SUBSCRIBE_PATH,
  SUBSCRIBE_TEXT,
} from "~/features/subscribers";
import { handleSubscribe } from "~/features/subscribers/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/subscribe";

/** The form's POST (from any page's form, no JavaScript): answered with this page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { status, body, headers } = await handleSubscribe(request, context);
  return data(body, { status, headers });
}

/** A document POST carries the action's headers (Retry-After on 429) only through this. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: SUBSCRIBE_PATH,
    title: `${SUBSCRIBE_TEXT.heading} · ${site.name}`,
    description: SUBSCRIBE_TEXT.intro,
    noindex: true,
  });
}

/** GET shows the form alone; after a POST, the answer (or the form with what went wrong). */
export default function Subscribe({ actionData }: Route.ComponentProps) {
  return actionData?.ok ? (
    <SubscribeDone outcome={actionData} />
  ) : (
    <SubscribeForm problem={actionData?.message} />
  );
}
