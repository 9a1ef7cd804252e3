/** The History panel's calls to the server; ../revisions/history-api.ts says what they answer. */
import {
  HISTORY_PATHS,
  type RestoreAnswer,
  type RestoreConflict,
  type RevisionList,
  type RevisionView,
} from "../revisions/history-api";
import { EDITOR_WINDOW_HEADER } from "../revisions/rules";
import { editorWindowId } from "./editor-window";

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return (await response.json()) as T;
}

export const fetchHistory = (postId: number) => getJson<RevisionList>(HISTORY_PATHS.list(postId));

export const fetchRevision = (postId: number, id: number) =>
  getJson<RevisionView>(HISTORY_PATHS.revision(postId, id));

/** Restores revision `id` for an editor that holds `baseRevision`: done, or refused (409). */
export async function requestRestore(
  postId: number,
  id: number,
  baseRevision: number | null,
): Promise<RestoreAnswer | RestoreConflict> {
  const path = HISTORY_PATHS.restore(postId, id);
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", [EDITOR_WINDOW_HEADER]: editorWindowId() },
    body: JSON.stringify({ baseRevision }),
  });
  if (!response.ok && response.status !== 409) throw new Error(`POST ${path}: ${response.status}`);
  return (await response.json()) as RestoreAnswer | RestoreConflict;
}

const sameYear = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});
const otherYear = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** When a revision was saved, in the owner's time zone: "26 Nov, 10:42" (with the year if not this one). */
export function revisionTime(iso: string): string {
  const date = new Date(iso);
  const format = date.getFullYear() === new Date().getFullYear() ? sameYear : otherYear;
  return format.format(date);
}
