import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import {
  readPostWrite,
  SlugTakenError,
  trashPost,
  updatePost,
} from "~/features/posts/index.server";
import { PUBLISH_TEXT } from "~/features/posts";

import type { Route } from "./+types/api.post";

const notFound = () => data({ ok: false, error: "No such post." }, { status: 404 });

/**
 * PUT /api/posts/{id} updates a post (and its state: draft, published, scheduled), DELETE
 * moves it to the trash, whence the owner may restore it (owner only). A PUT answers the post's
 * slug; 409 when the slug asked for is another post's.
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
  const { publish, ...post } = write.value;
  try {
    const updated = await updatePost(db, id, { ...post, publish: publish ?? { mode: "keep" } });
    return updated ? { ok: true, ...updated } : notFound();
  } catch (error) {
    if (error instanceof SlugTakenError) {
      return data({ ok: false, error: PUBLISH_TEXT.slugTaken }, { status: 409 });
    }
    throw error;
  }
}
