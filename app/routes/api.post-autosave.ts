import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { deviceTokenOf } from "~/features/owner/index.server";
import {
  autosavePost,
  readAutosave,
  refusedSave,
  revisionSourceOf,
} from "~/features/posts/index.server";

import type { Route } from "./+types/api.post-autosave";

/**
 * POST /api/posts/{id}/autosave (owner only): what the editor holds, kept as a revision
 * (app/features/posts/autosave.server.ts). `new` for a post not saved yet: the first autosave
 * creates it as a draft and answers 201 with its id. 409 when the post changed since the
 * revision the edit began from.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  const id = params.id === "new" ? null : parseSerialId(params.id);
  if (id === null && params.id !== "new") {
    return data({ ok: false, error: "No such post." }, { status: 404 });
  }
  const input = await readAutosave(request);
  if (!input.ok) return data({ ok: false, error: input.error }, { status: input.status });
  const source = revisionSourceOf(request, await deviceTokenOf(request, context));
  try {
    const saved = await autosavePost(context.get(appContext).db, id, input.value, source);
    if (!saved) return data({ ok: false, error: "No such post." }, { status: 404 });
    return data({ ok: true, ...saved }, { status: id === null ? 201 : 200 });
  } catch (error) {
    return refusedSave(error, source);
  }
}
