/**
 * A post's revisions: every save is one, autosaves within COALESCE_MS of the first coalesce into
 * it, and each stores its content as a delta against a base text of the same post (./delta.ts),
 * a new base only when the text moved too far from the last one.
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";

import type { Database } from "../../../../database/db.server";
import {
  postRevisionBases,
  postRevisions,
  type RevisionKind,
  type StoredPublishChoice,
} from "../../../../database/schema";
import { applyDelta, makeDelta, type Delta } from "./delta";
import { REVISION_RULES } from "./rules";
import { wordChanges } from "./word-changes";

/** What a revision holds of a post: what the editor edits. */
export type RevisionFields = {
  title: string;
  description: string;
  content: string;
  /** As typed: empty for "from the title". */
  slug: string;
  tags: string[];
  publish: StoredPublishChoice | null;
  /** As typed: empty for none. */
  canonicalUrl: string;
  syndication: string[];
};

/** Where a save came from: the owner's device (a hash), the editor window, the browser. */
export type RevisionSource = {
  device: string | null;
  session: string | null;
  agent: string | null;
};

export type RevisionSummary = {
  id: number;
  kind: RevisionKind;
  applied: boolean;
  createdAt: Date;
  savedAt: Date;
  title: string;
  wordsAdded: number;
  wordsRemoved: number;
} & RevisionSource;

export type Revision = RevisionSummary & RevisionFields;

const summaryColumns = {
  id: postRevisions.id,
  kind: postRevisions.kind,
  applied: postRevisions.applied,
  createdAt: postRevisions.createdAt,
  savedAt: postRevisions.savedAt,
  title: postRevisions.title,
  wordsAdded: postRevisions.wordsAdded,
  wordsRemoved: postRevisions.wordsRemoved,
  device: postRevisions.device,
  session: postRevisions.session,
  agent: postRevisions.agent,
};

/** The newest revision of a post (its head), or null when it has none yet. */
export async function headRevision(db: Database, postId: number): Promise<RevisionSummary | null> {
  const [head] = await db
    .select(summaryColumns)
    .from(postRevisions)
    .where(eq(postRevisions.postId, postId))
    .orderBy(desc(postRevisions.id))
    .limit(1);
  return head ?? null;
}

/** A post's revisions, newest first. */
export function listRevisions(db: Database, postId: number): Promise<RevisionSummary[]> {
  return db
    .select(summaryColumns)
    .from(postRevisions)
    .where(eq(postRevisions.postId, postId))
    .orderBy(desc(postRevisions.id));
}

/** One revision of a post, its content made whole; null when the post has no such revision. */
export async function readRevision(
  db: Database,
  postId: number,
  id: number,
): Promise<Revision | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      description: postRevisions.description,
      slug: postRevisions.slug,
      tags: postRevisions.tags,
      publish: postRevisions.publish,
      canonicalUrl: postRevisions.canonicalUrl,
      syndication: postRevisions.syndication,
      delta: postRevisions.delta,
      base: postRevisionBases.content,
    })
    .from(postRevisions)
    .innerJoin(postRevisionBases, eq(postRevisionBases.id, postRevisions.baseId))
    .where(and(eq(postRevisions.postId, postId), eq(postRevisions.id, id)));
  if (!row) return null;
  const { delta, base, ...revision } = row;
  return { ...revision, content: delta ? applyDelta(base, delta) : base };
}

export type NewRevision = {
  kind: RevisionKind;
  /** Whether blog_posts now holds this version. */
  applied: boolean;
  fields: RevisionFields;
  source: RevisionSource;
};

/**
 * Records a revision as the post's new head, inside the caller's transaction (which holds the
 * post's row lock). An autosave replaces the head when that is an autosave of the same
 * standing first saved less than COALESCE_MS ago: it gets a new id, so a save that started
 * from the replaced head is still seen to be late.
 */
export async function recordRevision(
  tx: Database,
  postId: number,
  revision: NewRevision,
): Promise<RevisionSummary> {
  const head = await headRevision(tx, postId);
  const coalesce =
    revision.kind === "auto" &&
    head?.kind === "auto" &&
    head.applied === revision.applied &&
    Date.now() - head.createdAt.getTime() < REVISION_RULES.coalesceMs;
  // Words are counted against the version before this one: the head, or what the head replaced.
  const previous = coalesce
    ? await revisionBefore(tx, postId, head.id)
    : head && (await readRevision(tx, postId, head.id));
  const counts = wordChanges(previous?.content ?? "", revision.fields.content);
  if (coalesce) await tx.delete(postRevisions).where(eq(postRevisions.id, head.id));
  const stored = await storeContent(tx, postId, revision.fields.content);
  const { title, description, slug, tags, publish, canonicalUrl, syndication } = revision.fields;
  const [row] = await tx
    .insert(postRevisions)
    .values({
      postId,
      kind: revision.kind,
      applied: revision.applied,
      ...(coalesce ? { createdAt: head.createdAt } : {}),
      title,
      description,
      slug,
      tags,
      publish,
      canonicalUrl,
      syndication,
      ...stored,
      wordsAdded: counts.added,
      wordsRemoved: counts.removed,
      device: revision.source.device,
      session: revision.source.session,
      agent: revision.source.agent,
    })
    .returning(summaryColumns);
  if (coalesce) await dropUnusedBases(tx, postId);
  return row!;
}

async function revisionBefore(tx: Database, postId: number, id: number) {
  const [before] = await tx
    .select({ id: postRevisions.id })
    .from(postRevisions)
    .where(and(eq(postRevisions.postId, postId), lt(postRevisions.id, id)))
    .orderBy(desc(postRevisions.id))
    .limit(1);
  return before ? readRevision(tx, postId, before.id) : null;
}

/** The base and delta a content is stored as: a delta of the post's newest base when one pays. */
async function storeContent(
  tx: Database,
  postId: number,
  content: string,
): Promise<{ baseId: number; delta: Delta | null }> {
  const [base] = await tx
    .select({ id: postRevisionBases.id, content: postRevisionBases.content })
    .from(postRevisionBases)
    .where(eq(postRevisionBases.postId, postId))
    .orderBy(desc(postRevisionBases.id))
    .limit(1);
  if (base) {
    if (base.content === content) return { baseId: base.id, delta: null };
    const delta = makeDelta(base.content, content);
    if (delta) return { baseId: base.id, delta };
  }
  const [created] = await tx
    .insert(postRevisionBases)
    .values({ postId, content })
    .returning({ id: postRevisionBases.id });
  return { baseId: created!.id, delta: null };
}

/** Bases of a post no revision uses any more (a replaced autosave's). */
async function dropUnusedBases(tx: Database, postId: number) {
  await tx.execute(sql`
    delete from post_revision_bases b
    where b.post_id = ${postId}
      and not exists (select 1 from post_revisions r where r.base_id = b.id)`);
}
