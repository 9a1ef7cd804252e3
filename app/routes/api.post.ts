import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { deviceTokenOf } from "~/features/owner/index.server";
import {
  readPostWrite,
  refusedSave,
  revisionSourceOf,
  trashPost,
  updatePost,
} from "~/features/posts/index.server";

import type { Route } from "./+types/api.post";

const notFound = () => data({ ok: false, error: "No such post." }, { status: 404 });

/**
 * PUT /api/posts/{id} updates a post (and its state: draft, published, scheduled), DELETE
 * moves it to the trash, whence the owner may restore it (owner only). A PUT answers the post's
 * slug and new revision; 409 when the slug asked for is another post's, or when the post changed
 * since the revision the edit began from.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") {
    return data(
      { ok: false, error: "Use PUT or DELETE." },
      { status: 405, headers: { Allow: "PUT, DELETE" } },
    );
  }
  const id = parseSerialId(params.id);
  if (id === null) return notFound();
  const { db } = context.get(appContext);
  if (request.method === "DELETE") {
    return (await trashPost(db, id)) ? { ok: true, id } : notFound();
  }
  const write = await readPostWrite(request);
  if (!write.ok) return data({ ok: false, error: write.error }, { status: write.status });
  const { publish, baseRevision, ...post } = write.value;
  const source = revisionSourceOf(request, await deviceTokenOf(request, context));
  try {
    const updated = await updatePost(
      db,
      id,
      { ...post, publish: publish ?? { mode: "keep" } },
      { baseRevision, source },
    );
    return updated ? { ok: true, ...updated } : notFound();
  } catch (error) {
    return refusedSave(error, source);
  }
}
