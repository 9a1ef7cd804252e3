/**
 * What the owner's inboxes (personal and shared) do with signed activities. Fedify has checked
 * the HTTP signature and that its key belongs to the activity's actor (401 otherwise, before
 * any of this runs), answered 202 and queued the activity as a `social.inbox` job
 * (inbox-queue.server.ts): these listeners run in that job, on the site's worker. A blocked
 * actor or domain is dropped silently (202, nothing stored). What a listener throws fails the
 * job, which the queue tries again with its backoff: a remote fetch that may work later
 * (FetchLater) is thrown on; a document that is not there, or not allowed, is not used.
 */
import type { InboxContext } from "@fedify/fedify";
import {
  Accept,
  Announce,
  Create,
  Delete,
  Follow,
  Like,
  Note,
  Undo,
  Update,
  type Activity,
  type Actor,
} from "@fedify/vocab";
import { eq } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialFollowers } from "../../../database/schema";
import { hostOf, isBlocked } from "./blocks.server";
import { queueDelivery } from "./delivery.server";
import { isFetchLater } from "./document-loader.server";
import type { FederationConfig, SocialFederation } from "./federation.server";
import { postIdForUrl, recordResponse, removeResponses } from "./responses.server";
import { AP_PATHS, OWNER_IDENTIFIER, socialUrls } from "./urls";

type Ctx = InboxContext<void>;

/** The sender, unless it or its domain is blocked (or the activity names none). */
async function senderOf(db: Database, activity: Activity): Promise<URL | null> {
  const actor = activity.actorId;
  if (!actor || (await isBlocked(db, actor.href))) return null;
  return actor;
}

/** What a remote lookup found; null when it found nothing usable, thrown when worth retrying. */
async function orNull<T>(lookup: Promise<T | null>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isFetchLater(error)) throw error;
    return null;
  }
}

const actorOf = (ctx: Ctx, activity: Activity): Promise<Actor | null> =>
  orNull(activity.getActor(ctx));

async function avatarOf(actor: Actor): Promise<string | null> {
  try {
    const icon = await actor.getIcon();
    const url = icon?.url;
    return url instanceof URL ? url.href : (url?.href?.href ?? null);
  } catch {
    return null;
  }
}

/** A reply's author, as responses show them. */
async function authorOf(ctx: Ctx, activity: Activity, sender: URL) {
  const actor = await actorOf(ctx, activity);
  const url = actor?.url instanceof URL ? actor.url.href : (actor?.url?.href?.href ?? sender.href);
  return {
    authorName: actor?.name?.toString() ?? actor?.preferredUsername?.toString() ?? null,
    authorUrl: url,
    authorPhoto: actor ? await avatarOf(actor) : null,
  };
}

export function registerInbox(federation: SocialFederation, { db, siteUrl }: FederationConfig) {
  const urls = socialUrls(siteUrl);

  /** A reply to one of our posts (Create or Update of a Note): stored, pending. */
  const recordReply = async (ctx: Ctx, activity: Create | Update) => {
    const sender = await senderOf(db, activity);
    if (!sender) return;
    const object = await orNull(activity.getObject(ctx));
    if (!(object instanceof Note) || !object.id || !object.replyTargetId) return;
    if (object.attributionId && object.attributionId.href !== sender.href) return;
    // Its id on the sender's own host: no one stores (or overwrites) a note in another's name.
    if (hostOf(object.id.href) !== hostOf(sender.href)) return;
    const postId = await postIdForUrl(db, siteUrl, object.replyTargetId.href);
    if (postId === null) return;
    const published = object.published ?? activity.published;
    await recordResponse(db, {
      postId,
      source: "activitypub",
      kind: "reply",
      sourceUrl: object.id.href,
      ...(await authorOf(ctx, activity, sender)),
      contentHtml: object.content?.toString() ?? null,
      publishedAt: published ? new Date(published.epochMilliseconds) : null,
    });
  };

  /** A like or boost of one of our posts: counted. */
  const recordReaction = async (ctx: Ctx, activity: Like | Announce, kind: "like" | "announce") => {
    const sender = await senderOf(db, activity);
    if (!sender || !activity.id || !activity.objectId) return;
    if (hostOf(activity.id.href) !== hostOf(sender.href)) return;
    const postId = await postIdForUrl(db, siteUrl, activity.objectId.href);
    if (postId === null) return;
    await recordResponse(db, {
      postId,
      source: "activitypub",
      kind,
      sourceUrl: activity.id.href,
      ...(await authorOf(ctx, activity, sender)),
    });
  };

  federation
    .setInboxListeners(AP_PATHS.inbox, AP_PATHS.sharedInbox)
    // The shared inbox fetches as the owner too (servers in authorized-fetch mode ask).
    .setSharedKeyDispatcher(() => ({ identifier: OWNER_IDENTIFIER }))
    .on(Follow, async (ctx, follow) => {
      const sender = await senderOf(db, follow);
      if (!sender || !follow.id || follow.objectId?.href !== urls.actor) return;
      const actor = await actorOf(ctx, follow);
      if (!actor?.id || !actor.inboxId || actor.id.href !== sender.href) return;
      const username = actor.preferredUsername?.toString();
      const host = hostOf(actor.id.href)!;
      const row = {
        actorUrl: actor.id.href,
        inboxUrl: actor.inboxId.href,
        sharedInboxUrl: actor.endpoints?.sharedInbox?.href ?? null,
        handle: username ? `@${username}@${actor.id.host}` : null,
        name: actor.name?.toString() ?? null,
        avatarUrl: await avatarOf(actor),
        domain: host,
      };
      await db.transaction(async (tx) => {
        await tx
          .insert(socialFollowers)
          .values(row)
          .onConflictDoUpdate({
            target: socialFollowers.actorUrl,
            set: { ...row, failingSince: null },
          });
        const accept = new Accept({
          id: new URL(urls.activity("accept", crypto.randomUUID())),
          actor: ctx.getActorUri(OWNER_IDENTIFIER),
          object: follow,
        });
        // The Accept goes to the follower's own inbox (Mastodon expects it there).
        await queueDelivery(tx, {
          body: JSON.stringify(await accept.toJsonLd({ contextLoader: ctx.contextLoader })),
          activityId: accept.id!.href,
          inbox: row.inboxUrl,
          followers: [row.actorUrl],
        });
      });
    })
    .on(Undo, async (ctx, undo) => {
      const sender = await senderOf(db, undo);
      if (!sender) return;
      // Mastodon embeds what it undoes; an object only named is looked up.
      const object = await orNull(undo.getObject(ctx));
      if (object instanceof Follow) {
        if (object.actorId?.href !== sender.href) return;
        await db.delete(socialFollowers).where(eq(socialFollowers.actorUrl, sender.href));
      } else if (object instanceof Like || object instanceof Announce) {
        if (object.id && object.actorId?.href === sender.href) {
          await removeResponses(db, object.id.href);
        }
      } else if (undo.objectId && hostOf(undo.objectId.href) === hostOf(sender.href)) {
        // Not found any more: whatever response it was, if it was the sender's.
        await removeResponses(db, undo.objectId.href);
      }
    })
    .on(Create, recordReply)
    .on(Update, recordReply)
    .on(Like, (ctx, like) => recordReaction(ctx, like, "like"))
    .on(Announce, (ctx, announce) => recordReaction(ctx, announce, "announce"))
    .on(Delete, async (_ctx, deletion) => {
      const sender = await senderOf(db, deletion);
      if (!sender || !deletion.objectId) return;
      // Only the sender's own objects: ids on its host.
      if (hostOf(deletion.objectId.href) !== hostOf(sender.href)) return;
      // An account deleted: it follows no more.
      if (deletion.objectId.href === sender.href) {
        await db.delete(socialFollowers).where(eq(socialFollowers.actorUrl, sender.href));
      }
      await removeResponses(db, deletion.objectId.href);
    });
}
