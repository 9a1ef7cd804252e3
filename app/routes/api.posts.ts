import { data } from "react-router";

import { appContext } from "~/context";
import { readPostWrite } from "~/lib/post-write.server";
import { requireOwnerWrite } from "~/lib/session.server";
import { createPost } from "~/models/posts.server";

import type { Route } from "./+types/api.posts";

/** POST /api/posts: create a post (owner only). Answers 201 with the new id. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  await requireOwnerWrite(request, context);
  const write = await readPostWrite(request);
  if (!write.ok) return data({ ok: false, error: write.error }, { status: write.status });
  const id = await createPost(context.get(appContext).db, write.value);
  return data({ ok: true, id }, { status: 201 });
}
