import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { revisionView } from "~/features/posts/index.server";

import type { Route } from "./+types/api.post-revision";

/**
 * GET /api/posts/{id}/revisions/{revision}: what the revision holds, with its diff to the
 * post's current head as the post renders (owner only).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseSerialId(params.id);
  const revision = parseSerialId(params.revision);
  const view =
    id === null || revision === null
      ? null
      : await revisionView(context.get(appContext).db, id, revision);
  return view ?? data({ ok: false, error: "No such revision." }, { status: 404 });
}
