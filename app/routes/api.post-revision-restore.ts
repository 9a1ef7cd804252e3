import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { deviceTokenOf } from "~/features/owner/index.server";
import {
  EditConflictError,
  readRestoreRequest,
  restoreAnswerOf,
  restoreConflictOf,
  restoreRevision,
  revisionSourceOf,
} from "~/features/posts/index.server";

import type { Route } from "./+types/api.post-revision-restore";

const notFound = () => data({ ok: false, error: "No such revision." }, { status: 404 });

/**
 * POST /api/posts/{id}/revisions/{revision}/restore, JSON `{ baseRevision }`: the revision
 * becomes the post's head again, as a new one (owner only). 409 with the head it would have
 * overwritten when the post changed since `baseRevision`.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  const id = parseSerialId(params.id);
  const revision = parseSerialId(params.revision);
  if (id === null || revision === null) return notFound();
  const body = await readRestoreRequest(request);
  if (!body.ok) return data({ ok: false, error: body.error }, { status: body.status });
  const source = revisionSourceOf(request, await deviceTokenOf(request, context));
  try {
    const restored = await restoreRevision(
      context.get(appContext).db,
      id,
      revision,
      body.baseRevision,
      source,
    );
    return restored ? restoreAnswerOf(restored) : notFound();
  } catch (error) {
    if (error instanceof EditConflictError) {
      return data(restoreConflictOf(error, source), { status: 409 });
    }
    throw error;
  }
}
