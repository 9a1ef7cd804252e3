import { redirect } from "react-router";

import { appContext } from "~/context";
import { sessionCookie, sessionIdOf, signOut } from "~/features/owner/index.server";

import type { Route } from "./+types/logout";

/** POST only: signing out changes state, so a GET (a link, a prefetch) never does it. */
export async function action({ request, context }: Route.ActionArgs) {
  const id = await sessionIdOf(request, context);
  if (id) await signOut(context.get(appContext).db, id);
  return redirect("/", {
    headers: { "Set-Cookie": await sessionCookie(context).serialize("", { maxAge: 0 }) },
  });
}

export function loader() {
  return redirect("/");
}
