import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { CARD_JOBS } from "../../app/features/cards/cards.server";
import { purgeOrphanMedia, ORPHAN_GRACE_HOURS } from "../../app/features/media/orphans.server";
import { processPhoto } from "../../app/features/media/processing.server";
import { readMedia } from "../../app/features/media/store.server";
import { autosavePost } from "../../app/features/posts/autosave.server";
import { readPostView } from "../../app/features/posts/reader/post-view.server";
import { restorePost, trashPost } from "../../app/features/posts/trash.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import {
  ensureProfile,
  getProfile,
  saveProfile,
  uploadPhoto,
} from "../../app/features/profile/profile.server";
import { pickContent } from "../../app/features/profile/profile.server";
import { readSiteIdentity, SEED_PROFILE } from "../../app/features/site/site.server";
import type { StoredShareCard } from "../../database/schema";
import { startJobWorker } from "../../server/jobs";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

const NO_SOURCE = { device: null, session: null, agent: null };

const post = (title: string, publish: PostWriteInput["publish"] = { mode: "now" }) => ({
  title,
  description: "",
  content: "<p>Some words.</p>",
  slug: null,
  tags: [],
  publish,
});

/** A photo as an owner uploads one: a JPEG with some detail. */
async function photoFile() {
  const raw = Buffer.alloc(600 * 600 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31) % 256;
  const bytes = await sharp(raw, { raw: { width: 600, height: 600, channels: 3 } })
    .jpeg()
    .toBuffer();
  const processed = await processPhoto(new Uint8Array(bytes));
  if (!processed.ok) throw new Error("the test photo was refused");
  return processed.files;
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`share cards on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
      await ensureProfile(database.db, SEED_PROFILE);
    });
    afterEach(async () => {
      await database.dispose();
    });

    /** Runs the cards' jobs that are due, as the server's worker does, until none is. */
    const runCardJobs = async () => {
      const worker = startJobWorker(database.db, CARD_JOBS);
      await worker.settled();
      await worker.stop();
    };
    const cardOf = async (id: number) =>
      (
        await queryRows<{ card: StoredShareCard | null }>(
          database.db,
          sql`select share_card as card from blog_posts where id = ${id}`,
        )
      )[0]!.card;
    const homeCard = async () => (await getProfile(database.db))!.shareCard;
    const refreshJobs = async () =>
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from jobs where kind = 'cards.refresh'`,
        )
      )[0]!.n;
    const mediaRow = async (hash: string) =>
      (
        await queryRows<{ content_type: string; purpose: string; unreferenced_since: unknown }>(
          database.db,
          sql`select content_type, purpose, unreferenced_since from media where hash = ${hash}`,
        )
      )[0];
    /** Moves the database's clock `hours` ahead for the purge: every file's times go back. */
    const moveClock = (hours: number) =>
      database.db.execute(sql`update media set
        created_at = created_at - make_interval(hours => ${hours}),
        unreferenced_since = unreferenced_since - make_interval(hours => ${hours})`);

    it("stores a published post's card, names it in the head, draws it again after a title change, and the old one goes with the purge", async () => {
      const db = database.db;
      const saved = await createPost(db, post("Queues with SKIP LOCKED"));
      expect(await refreshJobs()).toBe(1);
      expect(await cardOf(saved.id)).toBeNull();
      await runCardJobs();
      expect(await refreshJobs()).toBe(0);

      const first = (await cardOf(saved.id))!;
      expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await mediaRow(first.hash)).toMatchObject({
        content_type: "image/png",
        purpose: "card",
      });
      const stored = (await readMedia(db, first.hash))!;
      const meta = await sharp(stored.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
      expect(stored.bytes.byteLength).toBeLessThan(150 * 1024);
      // The post's page names it, with its size and the title as its text.
      const view = await readPostView(db, saved.slug, async () => true);
      expect(view && "post" in view ? view.post.shareImage : null).toEqual({
        url: `/media/${first.hash}.png`,
        alt: "Queues with SKIP LOCKED",
        width: 1200,
        height: 630,
      });
      // The home page has its own, with the owner's name and title.
      const home = (await homeCard())!;
      expect(home.hash).not.toBe(first.hash);
      const site = await readSiteIdentity(db);
      expect(site.shareCard).toEqual({
        url: `/media/${home.hash}.png`,
        alt: `${SEED_PROFILE.name}, ${SEED_PROFILE.title}`,
        width: 1200,
        height: 630,
      });

      // A save that changes nothing the card shows draws nothing.
      await updatePost(db, saved.id, {
        ...post("Queues with SKIP LOCKED"),
        content: "<p>More.</p>",
      });
      await runCardJobs();
      expect((await cardOf(saved.id))!.hash).toBe(first.hash);

      // A new title: a new card, at a new URL.
      await updatePost(db, saved.id, post("Queues with SKIP LOCKED, revisited"));
      // Until it is drawn, the page names the old card with the text it shows.
      const meanwhile = await readPostView(db, saved.slug, async () => true);
      expect(meanwhile && "post" in meanwhile ? meanwhile.post.shareImage : null).toMatchObject({
        url: `/media/${first.hash}.png`,
        alt: "Queues with SKIP LOCKED",
      });
      await runCardJobs();
      const second = (await cardOf(saved.id))!;
      expect(second.hash).not.toBe(first.hash);
      const again = await readPostView(db, saved.slug, async () => true);
      expect(again && "post" in again ? again.post.shareImage : null).toMatchObject({
        url: `/media/${second.hash}.png`,
        alt: "Queues with SKIP LOCKED, revisited",
      });

      // The old card is used by nothing now: marked, then deleted after the grace; the cards in
      // use stay.
      await purgeOrphanMedia(db);
      expect((await mediaRow(first.hash))!.unreferenced_since).not.toBeNull();
      expect((await mediaRow(second.hash))!.unreferenced_since).toBeNull();
      expect((await mediaRow(home.hash))!.unreferenced_since).toBeNull();
      await moveClock(ORPHAN_GRACE_HOURS + 1);
      const purged = await purgeOrphanMedia(db);
      expect(purged.deleted).toBe(1);
      expect(await mediaRow(first.hash)).toBeUndefined();
      expect(await mediaRow(second.hash)).toBeDefined();
      expect(await mediaRow(home.hash)).toBeDefined();
    });

    it("draws no card for drafts or autosaves, and one when a draft is published", async () => {
      const db = database.db;
      const draft = await createPost(db, post("A draft", { mode: "draft" }));
      const live = await createPost(db, post("A live post"));
      await runCardJobs();
      expect(await cardOf(draft.id)).toBeNull();
      const liveCard = (await cardOf(live.id))!;

      // Autosaves, of the draft and of the live post's title, ask for nothing and change no card.
      const typing = (id: number, revision: number, title: string) =>
        autosavePost(
          db,
          id,
          {
            baseRevision: revision,
            title,
            description: "",
            content: "<p>Typing.</p>",
            slug: "",
            tags: "",
            publish: { mode: "keep" },
          },
          NO_SOURCE,
        );
      let draftHead = draft.revision;
      let liveHead = live.revision;
      for (let i = 1; i <= 5; i++) {
        draftHead = (await typing(draft.id, draftHead, `A draft ${i}`))!.revision;
        liveHead = (await typing(live.id, liveHead, `A live post ${i}`))!.revision;
      }
      expect(await refreshJobs()).toBe(0);
      await runCardJobs();
      expect(await cardOf(draft.id)).toBeNull();
      expect(await cardOf(live.id)).toEqual(liveCard);

      // Published: its card is drawn.
      await updatePost(db, draft.id, post("A draft, published"), { baseRevision: draftHead });
      expect(await refreshJobs()).toBe(1);
      await runCardJobs();
      expect((await cardOf(draft.id))?.hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it("draws a scheduled post's card before it goes public, and asks again when a post leaves the trash", async () => {
      const db = database.db;
      const later = new Date(Date.now() + 24 * 3600_000);
      const scheduled = await createPost(db, post("Coming soon", { mode: "at", at: later }));
      expect(scheduled.status).toBe("scheduled");
      expect(await refreshJobs()).toBe(1);
      await runCardJobs();
      expect((await cardOf(scheduled.id))?.alt).toBe("Coming soon");

      await trashPost(db, scheduled.id);
      expect(await refreshJobs()).toBe(0);
      await restorePost(db, scheduled.id);
      expect(await refreshJobs()).toBe(1);
    });

    it("draws every card again when the photo or the owner's name changes", async () => {
      const db = database.db;
      const saved = await createPost(db, post("A post"));
      await runCardJobs();
      const before = { post: (await cardOf(saved.id))!, home: (await homeCard())! };

      await uploadPhoto(db, await photoFile());
      expect(await refreshJobs()).toBe(1);
      await runCardJobs();
      const withPhoto = { post: (await cardOf(saved.id))!, home: (await homeCard())! };
      expect(withPhoto.post.hash).not.toBe(before.post.hash);
      expect(withPhoto.home.hash).not.toBe(before.home.hash);
      // The photo is on it: a card with a photo differs from one without in many pixels.
      const stored = (await readMedia(db, withPhoto.post.hash))!;
      expect(stored.bytes.byteLength).toBeLessThan(150 * 1024);

      const profile = (await getProfile(db))!;
      await saveProfile(db, { ...pickContent(profile), name: "Grace Hopper" });
      await runCardJobs();
      expect((await cardOf(saved.id))!.hash).not.toBe(withPhoto.post.hash);
      expect((await homeCard())!.hash).not.toBe(withPhoto.home.hash);
    });
  });
}
