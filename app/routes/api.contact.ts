import { data } from "react-router";

import { handleContact } from "~/features/contact/index.server";

import type { Route } from "./+types/api.contact";

/** POST /api/contact: the contact form's submissions from the browser (form-encoded). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST")
    return data({ ok: false }, { status: 405, headers: { Allow: "POST" } });
  const { status, body, headers } = await handleContact(request, context);
  return data(body, { status, headers });
}
