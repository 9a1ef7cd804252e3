import { appContext } from "~/context";
import {
  allContactMessages,
  markMessageFailedForTests,
  resetContactMessages,
} from "~/routes/test-routes.server";

import type { Route } from "./+types/test.contact";

/** GET: every contact message as stored (tests only). */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json({ messages: await allContactMessages(context.get(appContext).db) });
}

/** DELETE removes every message; PATCH `{ id }` marks one failed, as if it gave up (tests only). */
export async function action({ context, request }: Route.ActionArgs) {
  const { db } = context.get(appContext);
  if (request.method === "DELETE") {
    await resetContactMessages(db);
    return new Response(null, { status: 204 });
  }
  if (request.method === "PATCH") {
    const body = (await request.json()) as { id: number };
    await markMessageFailedForTests(db, Number(body.id));
    return new Response(null, { status: 204 });
  }
  return new Response(null, { status: 405, headers: { Allow: "DELETE, PATCH" } });
}
