/**
 * The History panel's API, as the server answers it and the panel reads it: one statement of
 * its paths and shapes for both (app/routes/api.post-revision*.ts).
 */
import type { RevisionKind } from "../../../../database/schema";
import type { RevisionFields } from "./store.server";
import type { ChangedWhere } from "./conflict";

/** A revision in the panel's list; times are ISO strings. */
export type RevisionEntry = {
  id: number;
  kind: RevisionKind;
  /** Whether the post's row holds it; otherwise it waits as unpublished changes. */
  applied: boolean;
  createdAt: string;
  savedAt: string;
  wordsAdded: number;
  wordsRemoved: number;
  /** The browser it was saved from ("Firefox on Linux"), when known. */
  agent: string | null;
  title: string;
};

/** What a revision holds of a post: what the editor edits (the same in JSON). */
export type RevisionFieldsJson = RevisionFields;

/** GET /api/posts/{id}/revisions: the post's revisions, newest (its head) first. */
export type RevisionList = { revisions: RevisionEntry[] };

/** GET /api/posts/{id}/revisions/{revision}: one, with its diff to the post's head. */
export type RevisionView = {
  revision: RevisionEntry & RevisionFieldsJson;
  /** The post's head, which the diffs lead to. */
  head: number;
  /** The content's diff, from this revision to the head, sanitized. */
  diffHtml: string;
  /** False when too much changed to compare word by word (shown replaced whole). */
  diffWordByWord: boolean;
  /** The title's and the description's diffs, as inline HTML. */
  titleDiffHtml: string;
  descriptionDiffHtml: string;
};

/** POST /api/posts/{id}/revisions/{revision}/restore, JSON `{ baseRevision }`: 200. */
export type RestoreAnswer = {
  ok: true;
  /** The post's new head (kind "restored"). */
  revision: number;
  savedAt: string;
  applied: boolean;
  fields: RevisionFieldsJson;
};

/** The same, 409: the post changed since `baseRevision`; nothing was written. */
export type RestoreConflict = {
  ok: false;
  conflict: {
    revision: number;
    kind: RevisionKind;
    savedAt: string;
    agent: string | null;
    /** Where that change was made, as seen from the restoring editor. */
    where: ChangedWhere;
  };
};

export const HISTORY_PATHS = {
  list: (postId: number) => `/api/posts/${postId}/revisions`,
  revision: (postId: number, id: number) => `/api/posts/${postId}/revisions/${id}`,
  restore: (postId: number, id: number) => `/api/posts/${postId}/revisions/${id}/restore`,
};
