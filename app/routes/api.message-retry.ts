import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { retryMessage } from "~/features/contact/index.server";

import type { Route } from "./+types/api.message-retry";

/** POST /api/messages/{id}/retry: queue a failed message again (owner only). */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST")
    return data({ ok: false }, { status: 405, headers: { Allow: "POST" } });
  const id = parseSerialId(params.id);
  const { db, wakeDelivery } = context.get(appContext);
  if (id === null || !(await retryMessage(db, id))) {
    return data({ ok: false, error: "No failed message with that id." }, { status: 404 });
  }
  wakeDelivery?.();
  return { ok: true, id };
}
