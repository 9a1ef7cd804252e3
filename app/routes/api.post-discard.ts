import { data } from "react-router";
import { z } from "zod";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { deviceTokenOf } from "~/features/owner/index.server";
import { discardChanges, refusedSave, revisionSourceOf } from "~/features/posts/index.server";

import type { Route } from "./+types/api.post-discard";

const body = z.object({ baseRevision: z.number().int().positive().nullable() });

/**
 * POST /api/posts/{id}/discard (owner only): drops a published post's unpublished changes, as a
 * new revision of what visitors see (the discarded ones stay in the history).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  const id = parseSerialId(params.id);
  const parsed = body.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return data({ ok: false, error: "Send { baseRevision } as JSON." }, { status: 400 });
  }
  const source = revisionSourceOf(request, await deviceTokenOf(request, context));
  try {
    const db = context.get(appContext).db;
    const saved =
      id === null ? null : await discardChanges(db, id, parsed.data.baseRevision, source);
    if (!saved) return data({ ok: false, error: "No such post." }, { status: 404 });
    return { ok: true, ...saved };
  } catch (error) {
    return refusedSave(error, source);
  }
}
