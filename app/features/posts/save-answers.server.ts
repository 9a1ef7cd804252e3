/** How the post API answers a save the database refused: a taken URL, or an edit conflict. */
import { data } from "react-router";

import { PUBLISH_TEXT } from "./publishing";
import { CONFLICT_TEXT } from "./revisions/conflict";
import { conflictOf } from "./revisions/source.server";
import type { RevisionSource } from "./revisions/store.server";
import { EditConflictError, SlugTakenError } from "./write.server";

/** 409 for a taken slug or an edit conflict (with the head the save would have overwritten). */
export function refusedSave(error: unknown, source: RevisionSource) {
  if (error instanceof SlugTakenError) {
    return data({ ok: false, error: PUBLISH_TEXT.slugTaken }, { status: 409 });
  }
  if (error instanceof EditConflictError) {
    const conflict = conflictOf(error.head, source);
    return data({ ok: false, error: CONFLICT_TEXT.refused, conflict }, { status: 409 });
  }
  throw error;
}
