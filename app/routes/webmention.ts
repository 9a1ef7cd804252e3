import { appContext } from "~/context";
import { receiveWebmention } from "~/features/social/index.server";

import type { Route } from "./+types/webmention";

const notAllowed = () =>
  new Response("Send a Webmention with POST (source, target).", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });

export const loader = () => notAllowed();

/** POST /webmention (W3C Webmention): 202 and a verification queued, or 400/429 and why. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  const { db, env } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const answer = await receiveWebmention(db, env.siteUrl, {
    source: form?.get("source"),
    target: form?.get("target"),
  });
  return new Response(answer.message, {
    status: answer.status,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
