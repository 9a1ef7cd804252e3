import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import type { ProfileContent, StoredCv, StoredPhoto } from "./profile-content";

/**
 * A share card drawn for a page (app/features/cards): the PNG's media row, the fingerprint of
 * what it shows (a change to any of that is a card to draw again), and its text alternative,
 * which says what the image shows (the title it was drawn with, not the row's newer one).
 */
export type StoredShareCard = { hash: string; key: string; alt: string };

// One schema for both drivers (PGlite and node-postgres). Nothing here may need a
// PostgreSQL newer than 15: PGlite is PostgreSQL 18, but the oldest server we support is 15.

/** A post's state: only `published` posts are shown to visitors (app/features/posts/publishing.ts). */
export const POST_STATUSES = ["draft", "scheduled", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
/**
 * What the status column may hold: a post's state, or `trashed` (deleted by the owner, kept
 * with `trashed_at` and the state it comes back to, `trashed_status`, until purged).
 */
export const POST_ROW_STATUSES = [...POST_STATUSES, "trashed"] as const;
export type PostRowStatus = (typeof POST_ROW_STATUSES)[number];

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description"),
    content: text("content").notNull(),
    contentEn: text("content_en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The post's current URL segment. Empty on insert means "make one from the title": the
     * database does (migration 0007, blog_slug), so every writer, raw ones included, gets one.
     * Every slug a post ever had stays in post_slugs.
     */
    slug: text("slug").notNull().default(""),
    status: text("status", { enum: POST_ROW_STATUSES }).notNull().default("published"),
    /**
     * When the post went (or goes, if scheduled) public; lists and feeds sort by it. Null for a
     * draft never published. A published post inserted without one gets its created_at.
     */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Title (A), description (B) and the body's text (C), kept by a trigger (migration 0007). */
    /** When the owner deleted it (status `trashed`); purged 30 days later. */
    trashedAt: timestamp("trashed_at", { withTimezone: true }),
    /** The state a trashed post had, which Restore gives back. */
    trashedStatus: text("trashed_status", { enum: POST_STATUSES }),
    /** The post's share card (published and scheduled posts), made by a job after a save. */
    shareCard: jsonb("share_card").$type<StoredShareCard | null>(),
    /**
     * The owner's `Send to subscribers` choice, read once: when the post is first published
     * (migration 0014's trigger). Null (a post from before, or a restored backup's) means no.
     */
    sendToSubscribers: boolean("send_to_subscribers"),
    /**
     * When the post was first public, set by migration 0014's trigger and never cleared:
     * publishing again after an unpublish is no first publication, and sends nothing.
     */
    firstPublishedAt: timestamp("first_published_at", { withTimezone: true }),
    /**
     * Where the post was first published, when elsewhere: its canonical link, feeds and share
     * tags point there (migration 0023). Null: this site's own address.
     */
    canonicalUrl: text("canonical_url"),
    /**
     * The addresses of the post's copies elsewhere ("Also on dev.to"), in the owner's order.
     * Nullable (read as none), so that a row written without it, a restored one, still fits.
     */
    syndication: jsonb("syndication").$type<string[]>().default([]),
    searchVector: tsvector("search_vector")
      .notNull()
      .default(sql`''::tsvector`),
  },
  (t) => [
    // Ascending, so a backward scan serves "ORDER BY created_at DESC, id DESC" (the owner's list).
    index("blog_posts_created_at_idx").on(t.createdAt, t.id),
    // What visitors see, newest first, by a backward scan.
    index("blog_posts_published_idx")
      .on(t.publishedAt, t.id)
      .where(sql`${t.status} = 'published'`),
    index("blog_posts_scheduled_idx")
      .on(t.publishedAt)
      .where(sql`${t.status} = 'scheduled'`),
    uniqueIndex("blog_posts_slug_idx").on(t.slug),
    index("blog_posts_search_idx").using("gin", t.searchVector),
    // Trigram indexes serve the search's second chance (`ILIKE '%…%'` on title or description,
    // for what has no words: symbols, emoji, part of a CJK word) on both PGlite and PostgreSQL:
    // docs/decisions/005-blog-search-and-paging.md.
    // fastupdate off: every write goes straight into the index. With it on, inserts pile up in
    // a pending list that only VACUUM clears, and PGlite runs no autovacuum; the planner then
    // prices the index too high and scans the table (93 ms instead of 0.3 ms at 100,000 posts).
    index("blog_posts_title_trgm_idx")
      .using("gin", t.title.op("gin_trgm_ops"))
      .with({ fastupdate: false }),
    index("blog_posts_description_trgm_idx")
      .using("gin", t.description.op("gin_trgm_ops"))
      .with({ fastupdate: false }),
    index("blog_posts_trashed_idx")
      .on(t.trashedAt)
      .where(sql`${t.status} = 'trashed'`),
    check(
      "blog_posts_status_check",
      sql`${t.status} IN ('draft', 'scheduled', 'published', 'trashed')`,
    ),
    check(
      "blog_posts_trash_complete",
      sql`(${t.status} = 'trashed') = (${t.trashedAt} IS NOT NULL AND ${t.trashedStatus} IS NOT NULL)`,
    ),
    check("blog_posts_slug_format", sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check(
      "blog_posts_scheduled_has_time",
      sql`${t.status} <> 'scheduled' OR ${t.publishedAt} IS NOT NULL`,
    ),
  ],
);

/**
 * Every slug a post has had, its current one included: an old slug answers 301 to the current
 * one forever, and no other post may take it. Its foreign key to blog_posts (on delete
 * cascade) is written in migration 0007, deferred so a backup can restore slugs before their
 * posts, which Drizzle cannot declare.
 */
export const postSlugs = pgTable(
  "post_slugs",
  {
    slug: text("slug").primaryKey(),
    postId: integer("post_id").notNull(),
  },
  (t) => [index("post_slugs_post_idx").on(t.postId)],
);

/**
 * A post's tags, in the order the owner gave them. `listed_at` is the post's published_at
 * while it is published and null otherwise (kept by triggers, migration 0007), so a tag's
 * page reads one index in order.
 */
export const postTags = pgTable(
  "post_tags",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
    position: smallint("position").notNull(),
    listedAt: timestamp("listed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.tag] }),
    index("post_tags_listed_idx")
      .on(t.tag, t.listedAt, t.postId)
      .where(sql`${t.listedAt} IS NOT NULL`),
    check("post_tags_tag_format", sql`${t.tag} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);

/**
 * One row, kept by triggers on blog_posts (migrations 0001, 0007): the number of published posts, so the list
 * never counts 100,000 rows, and a version that changes whenever the list order may change.
 */
export const blogStats = pgTable(
  "blog_stats",
  {
    id: boolean("id").primaryKey().default(true),
    postCount: integer("post_count").notNull().default(0),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("blog_stats_single_row", sql`${t.id}`)],
);

/**
 * One row per tag, kept by statement-level triggers on post_tags (migration 0021): how many
 * published posts have the tag, so its page never counts 25,000 rows, and a version that moves
 * whenever the tag's list may change order (its page boundaries are then rebuilt).
 */
export const tagStats = pgTable("tag_stats", {
  tag: text("tag").primaryKey(),
  postCount: integer("post_count").notNull().default(0),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/**
 * The full text of some of a post's revisions: each revision stores its content as a delta
 * against one of these (app/features/posts/revisions/), so 500 revisions of a long post take
 * little more than the post. A base no revision uses any more is deleted with the last one.
 */
export const postRevisionBases = pgTable(
  "post_revision_bases",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
  },
  (t) => [index("post_revision_bases_post_idx").on(t.postId, t.id)],
);

export const REVISION_KINDS = ["manual", "auto", "restored", "imported"] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** The publishing choice an editor held when a revision was saved (app/features/posts/publishing.ts). */
export type StoredPublishChoice = { mode: "keep" | "draft" | "now" } | { mode: "at"; at: string };

/**
 * Every version of a post the owner saved, by hand or by autosave, newest last. The newest is
 * the post's head: a save names the head it started from and is refused when another one came
 * since. `applied`: the version is what blog_posts holds (a manual save, or an autosave of a
 * draft); an autosave of a published or scheduled post is not applied until Update Post.
 */
export const postRevisions = pgTable(
  "post_revisions",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REVISION_KINDS }).notNull(),
    applied: boolean("applied").notNull(),
    /** When it was first saved; autosaves coalesce into it for 10 minutes. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When it was last saved. */
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** As typed: empty for "from the title". */
    slug: text("slug").notNull(),
    tags: jsonb("tags").$type<string[]>().notNull(),
    publish: jsonb("publish").$type<StoredPublishChoice>(),
    /** As typed: empty for none (migration 0023). */
    canonicalUrl: text("canonical_url").notNull().default(""),
    /** As typed, one address an item. */
    syndication: jsonb("syndication").$type<string[]>().notNull().default([]),
    baseId: integer("base_id")
      .notNull()
      .references(() => postRevisionBases.id),
    /** The content as edits of its base's (null: the same). */
    delta: jsonb("delta").$type<(number | string)[]>(),
    wordsAdded: integer("words_added").notNull().default(0),
    wordsRemoved: integer("words_removed").notNull().default(0),
    /** Where it was saved: a hash of the owner's device cookie, the editor window, the browser. */
    device: text("device"),
    session: text("session"),
    agent: text("agent"),
  },
  (t) => [
    index("post_revisions_post_idx").on(t.postId, t.id),
    index("post_revisions_base_idx").on(t.baseId),
  ],
);

/**
 * The durable queue of background work (app/lib/jobs.server.ts): claimed with SKIP LOCKED,
 * retried with backoff, done once across instances and restarts. `key` names a job that must
 * exist once (a recurring purge); a done job is deleted.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: ["pending", "failed"] })
      .notNull()
      .default("pending"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("jobs_key_idx").on(t.key),
    index("jobs_due_idx")
      .on(t.runAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The two timelines of the résumé, one row per entry, in the owner's order (`sort_key`, then
 * id). `current`: the entry is still going (no end date shown). Education was `studies`, with
 * `currently_studying` and `current_job` for the flag, until migration 0008.
 */
export const jobExperiences = pgTable(
  "job_experiences",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    company: text("company").notNull(),
    from: text("from").notNull(),
    to: text("to"),
    current: boolean("current").notNull().default(false),
    sortKey: integer("sort_key").notNull().default(0),
  },
  (t) => [index("job_experiences_sort_idx").on(t.sortKey, t.id)],
);

export const education = pgTable(
  "education",
  {
    id: serial("id").primaryKey(),
    degree: text("degree").notNull(),
    institution: text("institution").notNull(),
    from: text("from").notNull(),
    to: text("to"),
    current: boolean("current").notNull().default(false),
    sortKey: integer("sort_key").notNull().default(0),
  },
  (t) => [index("education_sort_idx").on(t.sortKey, t.id)],
);

/**
 * The owner's profile (one row): what the home page, the header, the footer, share cards and
 * /resume.json show. Seeded from app/site.config.ts when missing; edited at /admin/profile.
 * Lists are JSON, checked by app/features/profile/profile.ts on every write.
 */
export const profile = pgTable(
  "profile",
  {
    id: boolean("id").primaryKey().default(true),
    name: text("name").notNull(),
    title: text("title").notNull(),
    location: text("location").notNull(),
    email: text("email").notNull(),
    about: jsonb("about").$type<ProfileContent["about"]>().notNull(),
    socials: jsonb("socials").$type<ProfileContent["socials"]>().notNull(),
    skills: jsonb("skills").$type<ProfileContent["skills"]>().notNull(),
    tools: jsonb("tools").$type<ProfileContent["tools"]>().notNull(),
    /** The uploaded photo's files (media rows), or null for the configured or default one. */
    photo: jsonb("photo").$type<StoredPhoto | null>(),
    /** The uploaded CV (a media row), or null. */
    cv: jsonb("cv").$type<StoredCv | null>(),
    /** The home page's share card, made by a job after the profile changes. */
    shareCard: jsonb("share_card").$type<StoredShareCard | null>(),
    /** The fediverse handle (app/features/social/handle.ts); null: made from the name. */
    fediverseHandle: text("fediverse_handle"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("profile_single_row", sql`${t.id}`)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * Uploaded files, one row per servable file (each resized width is its own row), keyed by the
 * SHA-256 of its bytes: in the database, so every instance serves them, at /media/{hash}.{ext}.
 * The bytes are in `media_parts`; the row is written once all its parts are there, so a file
 * exists (is served, backed up) exactly when its row does.
 */
export const media = pgTable(
  "media",
  {
    hash: text("hash").primaryKey(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    /** What uses it ("photo", "cv"): replacing the photo drops the old photo's files. */
    purpose: text("purpose").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Since when nothing is known to use the file (null: something did at the last look). A new
     * upload is marked at once (with its created_at); the orphan purge clears the mark when it
     * finds the hash in a post, a revision or the profile, and deletes files marked longer than
     * its grace (app/features/media/orphans.server.ts).
     */
    unreferencedSince: timestamp("unreferenced_since", { withTimezone: true }).defaultNow(),
  },
  (t) => [index("media_purpose_idx").on(t.purpose)],
);

/**
 * The size of a part of a stored file (the last one may be shorter). One INSERT or SELECT of a
 * part keeps the embedded database busy for tens of milliseconds where a whole 10 MB file took
 * seconds, so other queries (the health check's among them) run between parts
 * (docs/decisions/034-media-parts.md).
 */
export const MEDIA_PART_BYTES = 64 * 1024;

/**
 * A stored file's bytes in parts of MEDIA_PART_BYTES, numbered from 0. Parts are written before
 * their `media` row; parts no row owns are leftovers of an upload that failed, deleted by the
 * orphan purge after an hour. Deleting a `media` row deletes its parts (a trigger, migration
 * 0012).
 */
export const mediaParts = pgTable(
  "media_parts",
  {
    hash: text("hash").notNull(),
    seq: integer("seq").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.seq] })],
);

/** Facts about this database itself, such as whether the demo content was seeded once. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type BlogPost = typeof blogPosts.$inferSelect;
export type PostTag = typeof postTags.$inferSelect;

/** The owner's password, as a salted scrypt hash (one row). */
export const owner = pgTable(
  "owner",
  {
    id: boolean("id").primaryKey().default(true),
    passwordHash: text("password_hash").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("owner_single_row", sql`${t.id}`)],
);

/** Signed-in sessions. Only a SHA-256 of each session id is stored, never the id itself. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_expires_at_idx").on(t.expiresAt)],
);

/** Failed sign-ins by client address, for the throttle (kept in the database for every instance). */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: serial("id").primaryKey(),
    address: text("address").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sign_in_failures_address_idx").on(t.address, t.failedAt),
    // Old rows are pruned by age (app/features/owner/auth.server.ts).
    index("sign_in_failures_failed_at_idx").on(t.failedAt),
  ],
);

/**
 * Browsers the owner has signed in on (OWASP's device cookie): their attempts are throttled on
 * their own, so failures from anyone else never refuse the owner there. Only a SHA-256 of each
 * device token is stored.
 */
export const ownerDevices = pgTable(
  "owner_devices",
  {
    idHash: text("id_hash").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("owner_devices_last_seen_at_idx").on(t.lastSeenAt)],
);

/**
 * The contact outbox: every valid message is committed here before the visitor sees success,
 * then e-mailed by the delivery worker (app/features/contact/outbox.server.ts).
 */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    clientAddress: text("client_address").notNull(),
    /** pending → delivered, or failed after the last attempt; spam is never sent. */
    status: text("status", { enum: ["pending", "delivered", "failed", "spam"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A worker's claim while it sends; a claim left by a dead process expires. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("contact_messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("contact_messages_address_idx").on(t.clientAddress, t.createdAt),
    index("contact_messages_created_idx").on(t.createdAt),
  ],
);

export type ContactMessage = typeof contactMessages.$inferSelect;

/**
 * A reader who asked for new posts by e-mail (app/features/subscribers). `email` is stored
 * trimmed and lower-cased, once. pending (asked, not yet confirmed by the mailed link) →
 * confirmed → unsubscribed; only confirmed addresses are ever sent a post. `source`: the site's
 * form, or the owner's CSV import; an imported address counts as confirmed only when the owner
 * stated it consented (`consented_at`), otherwise it gets a confirmation mail like any other.
 */
export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const subscribers = pgTable(
  "subscribers",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    status: text("status", { enum: SUBSCRIBER_STATUSES }).notNull().default("pending"),
    source: text("source", { enum: ["form", "import"] })
      .notNull()
      .default("form"),
    /** Who asked (rate limits, as for contact messages); null for imports. */
    clientAddress: text("client_address"),
    /** When the owner stated, on import, that this address had consented. */
    consentedAt: timestamp("consented_at", { withTimezone: true }),
    /** The last confirmation mail asked for (a new request sends at most one per window). */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscribers_email_idx").on(t.email),
    index("subscribers_status_idx").on(t.status, t.id),
    index("subscribers_address_idx").on(t.clientAddress, t.createdAt),
  ],
);

export type Subscriber = typeof subscribers.$inferSelect;

/**
 * Subscribe requests by client address, one row per request whatever the address asked for
 * (app/features/subscribers/store.server.ts): the per-client limit counts these, so a
 * request for a new address and one for a subscribed address use up the limit alike and the
 * limit tells no one which addresses subscribe. Rows older than the window are pruned.
 */
export const subscribeRequests = pgTable(
  "subscribe_requests",
  {
    id: serial("id").primaryKey(),
    clientAddress: text("client_address").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("subscribe_requests_address_idx").on(t.clientAddress, t.requestedAt),
    index("subscribe_requests_requested_at_idx").on(t.requestedAt),
  ],
);

/**
 * The newsletter's mail (app/features/subscribers/newsletter.server.ts): one row per post and
 * confirmed subscriber, made when the post is first published, so each subscriber gets each
 * post once. Claimed in batches with SKIP LOCKED under a lease (`locked_until`), marked `sent`
 * right after the mail server accepted it, retried with backoff (`next_attempt_at`) until
 * `failed`; `skipped` when the subscriber left before their turn.
 */
export const NEWSLETTER_SEND_STATUSES = ["pending", "sent", "failed", "skipped"] as const;
export type NewsletterSendStatus = (typeof NEWSLETTER_SEND_STATUSES)[number];

export const newsletterSends = pgTable(
  "newsletter_sends",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    status: text("status", { enum: NEWSLETTER_SEND_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("newsletter_sends_recipient_idx").on(t.postId, t.subscriberId),
    index("newsletter_sends_due_idx")
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    check(
      "newsletter_sends_status_check",
      sql`${t.status} IN ('pending', 'sent', 'failed', 'skipped')`,
    ),
  ],
);

export type NewsletterSend = typeof newsletterSends.$inferSelect;

/**
 * The one rate budget every instance takes from (a token bucket, NEWSLETTER_RATE messages per
 * minute): `tokens` as of `refilled_at`, and what the last take granted. One row, id 1.
 */
export const newsletterBudget = pgTable(
  "newsletter_budget",
  {
    id: smallint("id").primaryKey(),
    tokens: doublePrecision("tokens").notNull().default(0),
    granted: integer("granted").notNull().default(0),
    refilledAt: timestamp("refilled_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("newsletter_budget_one_row", sql`${t.id} = 1`)],
);

/**
 * The fediverse's followers of the owner's actor (app/features/social): where to deliver (a
 * shared inbox serves every follower on one server with one request) and who they are, for the
 * owner's list. `failing_since`: the first failed delivery since the last success (a follower
 * failing for long enough is dropped).
 */
export const socialFollowers = pgTable(
  "social_followers",
  {
    id: serial("id").primaryKey(),
    actorUrl: text("actor_url").notNull(),
    inboxUrl: text("inbox_url").notNull(),
    sharedInboxUrl: text("shared_inbox_url"),
    /** `@user@host`, as the follower's server names them. */
    handle: text("handle"),
    name: text("name"),
    avatarUrl: text("avatar_url"),
    /** The lowercased host of `actor_url` (domain blocks, the owner's list). */
    domain: text("domain").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    failingSince: timestamp("failing_since", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("social_followers_actor_idx").on(t.actorUrl),
    index("social_followers_created_idx").on(t.createdAt, t.id),
    index("social_followers_domain_idx").on(t.domain),
  ],
);

export type SocialFollower = typeof socialFollowers.$inferSelect;

export const SOCIAL_BLOCK_KINDS = ["actor", "domain"] as const;
export type SocialBlockKind = (typeof SOCIAL_BLOCK_KINDS)[number];

/** What the owner blocked: one actor (its URL), or a whole domain (a lowercased host). */
export const socialBlocks = pgTable(
  "social_blocks",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: SOCIAL_BLOCK_KINDS }).notNull(),
    value: text("value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("social_blocks_value_idx").on(t.kind, t.value),
    check("social_blocks_kind_check", sql`${t.kind} IN ('actor', 'domain')`),
  ],
);

export type SocialBlock = typeof socialBlocks.$inferSelect;

export const RESPONSE_SOURCES = ["activitypub", "webmention"] as const;
export const RESPONSE_KINDS = ["reply", "like", "announce", "mention"] as const;
export const RESPONSE_STATUSES = ["pending", "approved", "rejected"] as const;
export type ResponseSource = (typeof RESPONSE_SOURCES)[number];
export type ResponseKind = (typeof RESPONSE_KINDS)[number];
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/**
 * What others sent about a post: replies, likes and boosts over ActivityPub, and Webmentions.
 * `source_url` is the remote object's or activity's id, or the mention's source page; content
 * is stored sanitized. Nothing is shown before its status is `approved`.
 */
export const socialResponses = pgTable(
  "social_responses",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    source: text("source", { enum: RESPONSE_SOURCES }).notNull(),
    kind: text("kind", { enum: RESPONSE_KINDS }).notNull(),
    sourceUrl: text("source_url").notNull(),
    authorName: text("author_name"),
    authorUrl: text("author_url"),
    authorPhoto: text("author_photo"),
    contentHtml: text("content_html"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    status: text("status", { enum: RESPONSE_STATUSES }).notNull().default("pending"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("social_responses_source_idx").on(t.sourceUrl, t.postId),
    index("social_responses_post_idx").on(t.postId, t.status),
    index("social_responses_status_idx").on(t.status, t.receivedAt),
    check("social_responses_source_check", sql`${t.source} IN ('activitypub', 'webmention')`),
    check(
      "social_responses_kind_check",
      sql`${t.kind} IN ('reply', 'like', 'announce', 'mention')`,
    ),
    check("social_responses_status_check", sql`${t.status} IN ('pending', 'approved', 'rejected')`),
  ],
);

export type SocialResponse = typeof socialResponses.$inferSelect;

/** The ActivityPub library's key-value store (remote documents, keys, seen activities). */
export const socialKv = pgTable(
  "social_kv",
  {
    key: text("key").primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("social_kv_expires_idx").on(t.expiresAt)],
);

export const OUTBOX_TYPES = ["Create", "Update", "Delete"] as const;
export type OutboxType = (typeof OUTBOX_TYPES)[number];

/**
 * The activities the owner's actor sent, newest last: its outbox, and what was last said about
 * each post (an edit is an `Update` only after a `Create`). No foreign key: a `Delete` outlives
 * its post.
 */
export const socialOutbox = pgTable(
  "social_outbox",
  {
    id: serial("id").primaryKey(),
    activityId: text("activity_id").notNull(),
    type: text("type", { enum: OUTBOX_TYPES }).notNull(),
    postId: integer("post_id"),
    activity: jsonb("activity").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("social_outbox_activity_idx").on(t.activityId),
    index("social_outbox_post_idx").on(t.postId, t.id),
    check("social_outbox_type_check", sql`${t.type} IN ('Create', 'Update', 'Delete')`),
  ],
);

export type SocialOutboxRow = typeof socialOutbox.$inferSelect;

/**
 * The pages a post linked to when Webmentions were last sent for it (app/features/social): an
 * edit that removes a link notifies that page too (the Webmention update case), once.
 */
export const socialWebmentionTargets = pgTable(
  "social_webmention_targets",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.target] })],
);

/**
 * Posts brought in from another blog (docs/decisions/040-imports.md): the old system's id of
 * each, so that importing the same export again creates nothing new. Goes with its post.
 */
export const importedPosts = pgTable(
  "imported_posts",
  {
    source: text("source").notNull(),
    sourceId: text("source_id").notNull(),
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.sourceId] }),
    index("imported_posts_post_idx").on(t.postId),
  ],
);

/**
 * The old site's paths of imported posts (`/?p=123`, `/2020/01/02/slug/`, `/@user/slug-abc123`),
 * each answering 301 to its post while the post is published.
 */
export const importedPaths = pgTable("imported_paths", {
  path: text("path").primaryKey(),
  postId: integer("post_id")
    .notNull()
    .references(() => blogPosts.id, { onDelete: "cascade" }),
});

/** What an import job's row says of its progress and its end. */
export type ImportJobResult = {
  created: number;
  failed: { title: string; reason: string }[];
  skipped: number;
  /** Images brought here, and those kept as links (absent in rows written before images). */
  images?: { rehosted: number; failed: { src: string; title: string; reason: string }[] };
};

/**
 * An export uploaded in /admin/import, kept from its dry run until its import ends: the file
 * (so that `Import` needs no second upload), how far the job is, and what it did.
 */
export const importJobs = pgTable(
  "import_jobs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    fileName: text("file_name").notNull(),
    bytes: bytea("bytes").notNull(),
    status: text("status", { enum: ["planned", "queued", "running", "done", "failed"] })
      .notNull()
      .default("planned"),
    done: integer("done").notNull().default(0),
    total: integer("total").notNull().default(0),
    result: jsonb("result").$type<ImportJobResult | null>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "import_jobs_status_check",
      sql`${t.status} IN ('planned', 'queued', 'running', 'done', 'failed')`,
    ),
  ],
);
