/**
 * Making share cards: each published or scheduled post's (its title, date, the site's name and
 * the owner's photo) and the home page's (the owner's name, title, location and photo), drawn
 * again whenever what one shows changes. The work is a job of the durable queue
 * (app/lib/jobs.server.ts): a save that may change a card adds one, and a recurring job catches
 * any change that came another way (a backup restored, a post published on schedule). A card is
 * compared by its fingerprint, so a job with nothing to draw reads the rows and ends
 * (docs/decisions/035-share-cards.md).
 */
import { createHash } from "node:crypto";

import { and, asc, eq, gt, inArray } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts, profile, type StoredShareCard } from "../../../database/schema";
import { readMedia, storeMedia } from "~/features/media/index.server";
import { formatLongDate, HOUR_MS } from "~/lib/format";
import { enqueue, JOB_LEASE_MS, type JobHandler } from "~/lib/jobs.server";
import { siteConfig } from "~/site.config";

import { cardAlt, CARD_LIMITS, CARD_SIZE, CARD_VERSION } from "./card";
import { drawCards, type CardSpec } from "./render-card.server";

/** The one-off job a save adds; the recurring one that catches everything else. */
export const CARD_REFRESH_JOB = "cards.refresh";
export const CARD_CHECK_JOB = "cards.check";
/** How often the recurring job looks for cards that are not what their page shows. */
export const CARD_CHECK_EVERY_MS = HOUR_MS;
/** A job stops drawing after this long, inside its lease, and adds one to go on. */
const CARD_BUDGET_MS = JOB_LEASE_MS / 2;
/** The smallest photo file drawn on a card (the card shows it 240 pixels wide). */
const PHOTO_MIN_WIDTH = 240;
/** Posts read by one statement while looking for stale cards. */
const SCAN_BATCH_ROWS = 200;

/**
 * Asks for the cards to be brought up to date (a post was saved, the profile changed): inside
 * the caller's transaction, the job exists if and only if it commits. Cheap when nothing a card
 * shows has changed: the job compares fingerprints and draws nothing.
 */
export async function requestCardRefresh(db: Database): Promise<void> {
  await enqueue(db, { kind: CARD_REFRESH_JOB });
}

/** A card to draw: its post (null: the home page's), what it shows, and the fingerprint of that. */
type Stale = { post: number | null; spec: Omit<CardSpec, "photo">; key: string };

/** The owner's details every card shows, and the photo's file (a JPEG), if any. */
export type CardOwner = { name: string; title: string; location: string; photoHash: string | null };

/** The fingerprint of what a card shows (with the drawing's version): equal keys, equal cards. */
const keyOf = (spec: Omit<CardSpec, "photo">, photoHash: string | null) =>
  createHash("sha256")
    .update(JSON.stringify([CARD_VERSION, spec.heading, spec.detail, spec.site, photoHash]))
    .digest("hex")
    // Shorter than a media hash, so the orphan purge never takes it for one.
    .slice(0, 32);

/** The uploaded photo's JPEG drawn on cards; none when the configuration names another photo. */
function photoOf(photo: typeof profile.$inferSelect.photo): string | null {
  if (siteConfig.photoUrl || !photo) return null;
  const jpegs = photo.files
    .filter((f) => f.type === "image/jpeg")
    .sort((a, b) => a.width - b.width);
  return (jpegs.find((f) => f.width >= PHOTO_MIN_WIDTH) ?? jpegs.at(-1))?.hash ?? null;
}

/** The owner as cards show them, and the home page's card; null before the profile exists. */
async function readOwner(db: Database, lock = false) {
  const query = db.select().from(profile).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) return null;
  const owner: CardOwner = {
    name: row.name,
    title: row.title,
    location: row.location,
    photoHash: photoOf(row.photo),
  };
  return { owner, card: row.shareCard ?? null };
}

/** What a post's card shows. */
export const postCardSpec = (owner: CardOwner, post: { title: string; publishedAt: Date }) => ({
  heading: post.title,
  detail: formatLongDate(post.publishedAt),
  site: owner.name,
});

/** What the home page's card shows. */
export const homeCardSpec = (owner: CardOwner) => ({
  heading: owner.name,
  detail: owner.title,
  site: owner.location,
});

const homeKey = (owner: CardOwner) => keyOf(homeCardSpec(owner), owner.photoHash);
const postKey = (owner: CardOwner, post: { title: string; publishedAt: Date }) =>
  keyOf(postCardSpec(owner, post), owner.photoHash);

/** The posts that have cards: what visitors see, and what they will see on schedule. */
const hasCard = inArray(blogPosts.status, ["published", "scheduled"]);

/** Up to CARD_LIMITS.batch cards whose stored key is not that of what they would show now. */
async function staleCards(db: Database, owner: CardOwner, home: StoredShareCard | null) {
  // The home page's card first, alone: it is the one most shared, and a batch takes seconds.
  if (home?.key !== homeKey(owner)) {
    return [{ post: null, spec: homeCardSpec(owner), key: homeKey(owner) }];
  }
  const stale: Stale[] = [];
  let after = 0;
  while (stale.length < CARD_LIMITS.batch) {
    const rows = await db
      .select({
        id: blogPosts.id,
        title: blogPosts.title,
        publishedAt: blogPosts.publishedAt,
        card: blogPosts.shareCard,
      })
      .from(blogPosts)
      .where(and(hasCard, gt(blogPosts.id, after)))
      .orderBy(asc(blogPosts.id))
      .limit(SCAN_BATCH_ROWS);
    for (const { id, title, publishedAt, card } of rows) {
      if (!publishedAt || stale.length >= CARD_LIMITS.batch) continue;
      const key = postKey(owner, { title, publishedAt });
      if (card?.key !== key) {
        stale.push({ post: id, spec: postCardSpec(owner, { title, publishedAt }), key });
      }
    }
    if (rows.length < SCAN_BATCH_ROWS) break;
    after = rows.at(-1)!.id;
  }
  return stale;
}

/**
 * Writes drawn cards into their rows, each only if its row still shows what was drawn (a save,
 * or another instance's job, may have changed it meanwhile: its own job draws that).
 */
async function writeCards(db: Database, cards: (Stale & { hash: string })[]) {
  return db.transaction(async (tx) => {
    const now = await readOwner(tx as unknown as Database, true);
    if (!now) return 0;
    let written = 0;
    for (const { post, key, hash, spec } of cards) {
      const alt = cardAlt(spec, post === null);
      const shareCard: StoredShareCard = { hash, key, alt };
      if (post === null) {
        if (homeKey(now.owner) !== key) continue;
        await tx.update(profile).set({ shareCard }).where(eq(profile.id, true));
        written++;
        continue;
      }
      const [row] = await tx
        .select({ title: blogPosts.title, publishedAt: blogPosts.publishedAt })
        .from(blogPosts)
        .where(and(eq(blogPosts.id, post), hasCard))
        .for("update");
      if (
        !row?.publishedAt ||
        postKey(now.owner, { ...row, publishedAt: row.publishedAt }) !== key
      ) {
        continue;
      }
      await tx.update(blogPosts).set({ shareCard }).where(eq(blogPosts.id, post));
      written++;
    }
    return written;
  });
}

/**
 * Draws one batch of stale cards, stores their PNGs in the media store, and writes each into
 * its row (which drops the cached pages that name the old one; the old file, used by nothing
 * now, goes with the orphan purge). Returns how many were drawn: 0 when every card is current.
 */
export async function refreshCardBatch(db: Database): Promise<number> {
  const read = await readOwner(db);
  if (!read) return 0;
  const stale = await staleCards(db, read.owner, read.card);
  if (stale.length === 0) return 0;
  const { photoHash } = read.owner;
  const photo = photoHash ? ((await readMedia(db, photoHash))?.bytes ?? null) : null;
  const pngs = await drawCards(stale.map((card) => ({ ...card.spec, photo })));
  const stored = await storeMedia(
    db,
    "card",
    pngs.map((bytes) => ({ bytes, contentType: "image/png", ...CARD_SIZE })),
  );
  await writeCards(
    db,
    stale.map((card, i) => ({ ...card, hash: stored[i]!.hash })),
  );
  return stale.length;
}

/**
 * Brings every card up to date, batch after batch, for up to CARD_BUDGET_MS; what is left then
 * goes to a new job.
 */
export async function refreshCards(db: Database, budgetMs = CARD_BUDGET_MS) {
  const until = Date.now() + budgetMs;
  let drawn = 0;
  for (;;) {
    const batch = await refreshCardBatch(db);
    drawn += batch;
    if (batch === 0) return { drawn, more: false };
    if (Date.now() >= until) {
      await requestCardRefresh(db);
      return { drawn, more: true };
    }
  }
}

/** The share cards' jobs (server/jobs.ts runs them). */
export const CARD_JOBS: readonly JobHandler[] = [
  { kind: CARD_REFRESH_JOB, run: (db) => refreshCards(db) },
  { kind: CARD_CHECK_JOB, everyMs: CARD_CHECK_EVERY_MS, run: (db) => refreshCards(db) },
];
