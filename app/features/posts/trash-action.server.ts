import { data } from "react-router";

import type { Database } from "../../../database/db.server";
import { parseSerialId } from "~/lib/ids";

import { postPath } from "./publishing";
import { TRASH_TEXT, type TrashResult } from "./trash";
import { deleteForever, findTrashed, restorePost } from "./trash.server";

/**
 * The trash's buttons, each a form posting `intent` and the post's `id`: `restore`, `delete`
 * (forever), and `ask`, which a page without JavaScript sends first to be shown the confirmation
 * that a script shows in a dialog.
 */
const INTENTS = ["restore", "delete", "ask"] as const;
type Intent = (typeof INTENTS)[number];

const answer = (status: number, result: TrashResult) => data(result, { status });
const notInTrash = () => answer(404, { ok: false, message: TRASH_TEXT.notInTrash });

/** Reads a form posted to the trash and does what it asks; the owner's gate has let it in. */
export async function answerTrashForm(db: Database, request: Request) {
  const form = await request.formData().catch(() => null);
  const intent = INTENTS.find((i) => i === form?.get("intent"));
  const rawId = form?.get("id");
  const id = typeof rawId === "string" ? parseSerialId(rawId) : null;
  if (!intent || id === null) return answer(400, { ok: false, message: TRASH_TEXT.badRequest });
  return act(db, intent, id);
}

async function act(db: Database, intent: Intent, id: number) {
  switch (intent) {
    case "restore": {
      const restored = await restorePost(db, id);
      if (!restored) return notInTrash();
      return answer(200, {
        ok: true,
        message: TRASH_TEXT.restored(restored.title),
        path: postPath(restored.slug),
      });
    }
    case "ask": {
      const post = await findTrashed(db, id);
      return post ? answer(200, { ok: true, message: "", confirm: id }) : notInTrash();
    }
    case "delete": {
      const deleted = await deleteForever(db, id);
      return deleted
        ? answer(200, { ok: true, message: TRASH_TEXT.deleted(deleted.title) })
        : notInTrash();
    }
  }
}
