/** The History panel's reads and the restore's request, answered as ./history-api.ts says. */
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";

import type { Database } from "../../../../database/db.server";
import { blogPosts } from "../../../../database/schema";
import type { EditConflictError } from "../write.server";
import type {
  RestoreAnswer,
  RestoreConflict,
  RevisionEntry,
  RevisionList,
  RevisionView,
} from "./history-api";
import { renderDiff, renderTextDiff } from "./render-diff.server";
import type { Restored } from "./restore.server";
import { conflictOf } from "./source.server";
import {
  headRevision,
  listRevisions,
  readRevision,
  type RevisionSource,
  type RevisionSummary,
} from "./store.server";

const entryOf = (summary: RevisionSummary): RevisionEntry => ({
  id: summary.id,
  kind: summary.kind,
  applied: summary.applied,
  createdAt: summary.createdAt.toISOString(),
  savedAt: summary.savedAt.toISOString(),
  wordsAdded: summary.wordsAdded,
  wordsRemoved: summary.wordsRemoved,
  agent: summary.agent,
  title: summary.title,
});

async function postExists(db: Database, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), ne(blogPosts.status, "trashed")));
  return row !== undefined;
}

/** A post's revisions, newest first; null when there is no such post (or it is in the trash). */
export async function postHistory(db: Database, postId: number): Promise<RevisionList | null> {
  if (!(await postExists(db, postId))) return null;
  return { revisions: (await listRevisions(db, postId)).map(entryOf) };
}

/** One revision of a post with its diffs to the post's head; null when there is none. */
export async function revisionView(
  db: Database,
  postId: number,
  id: number,
): Promise<RevisionView | null> {
  if (!(await postExists(db, postId))) return null;
  const revision = await readRevision(db, postId, id);
  const headId = (await headRevision(db, postId))?.id;
  const head = headId === undefined ? null : await readRevision(db, postId, headId);
  if (!revision || !head) return null;
  const [content, title, description] = await Promise.all([
    renderDiff(revision.content, head.content),
    renderTextDiff(revision.title, head.title),
    renderTextDiff(revision.description, head.description),
  ]);
  const {
    description: text,
    content: html,
    slug,
    tags,
    publish,
    canonicalUrl,
    syndication,
  } = revision;
  return {
    revision: {
      ...entryOf(revision),
      ...{ description: text, content: html, slug, tags, publish, canonicalUrl, syndication },
    },
    head: head.id,
    diffHtml: content.html,
    diffWordByWord: content.wordByWord,
    titleDiffHtml: title.html,
    descriptionDiffHtml: description.html,
  };
}

const restoreSchema = z.object({ baseRevision: z.number().int().positive().nullable() });

type Refused = { ok: false; status: number; error: string };

/** A restore's JSON body: the revision the editor started from (null: the post had none). */
export async function readRestoreRequest(
  request: Request,
): Promise<{ ok: true; baseRevision: number | null } | Refused> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return { ok: false, status: 415, error: "Send the restore as application/json." };
  }
  const parsed = restoreSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    return { ok: false, status: 400, error: "Name the revision the editor started from." };
  }
  return { ok: true, baseRevision: parsed.data.baseRevision };
}

export const restoreAnswerOf = (restored: Restored): RestoreAnswer => ({
  ok: true,
  revision: restored.revision,
  savedAt: restored.savedAt.toISOString(),
  applied: restored.applied,
  fields: restored.fields,
});

/** A refused restore's answer: the head it would have overwritten, and where that was saved. */
export const restoreConflictOf = (
  error: EditConflictError,
  here: RevisionSource,
): RestoreConflict => ({ ok: false, conflict: conflictOf(error.head, here) });
