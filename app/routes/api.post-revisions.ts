import { data } from "react-router";

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { postHistory } from "~/features/posts/index.server";

import type { Route } from "./+types/api.post-revisions";

/** GET /api/posts/{id}/revisions: the post's revisions, newest first (owner only). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseSerialId(params.id);
  const history = id === null ? null : await postHistory(context.get(appContext).db, id);
  return history ?? data({ ok: false, error: "No such post." }, { status: 404 });
}
