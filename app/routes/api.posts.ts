import { data } from "react-router";

import { appContext } from "~/context";
import { deviceTokenOf } from "~/features/owner/index.server";
import {
  createPost,
  readPostWrite,
  refusedSave,
  revisionSourceOf,
} from "~/features/posts/index.server";

import type { Route } from "./+types/api.posts";

/**
 * POST /api/posts: create a post (owner only), a draft, published or scheduled. Answers 201
 * with the new id and slug; 409 when the slug asked for is another post's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  const write = await readPostWrite(request);
  if (!write.ok) return data({ ok: false, error: write.error }, { status: write.status });
  const { publish, baseRevision: _none, ...post } = write.value;
  const source = revisionSourceOf(request, await deviceTokenOf(request, context));
  try {
    const created = await createPost(
      context.get(appContext).db,
      { ...post, publish: publish ?? { mode: "now" } },
      { source },
    );
    return data({ ok: true, ...created }, { status: 201 });
  } catch (error) {
    return refusedSave(error, source);
  }
}
