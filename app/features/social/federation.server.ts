/**
 * The site's ActivityPub side, wired with Fedify (docs/decisions/038-activitypub-with-fedify.md):
 * one Federation per database (so once per process), its store in social_kv, remote documents
 * through safeFetch, addresses from SITE_URL. Fedify answers WebFinger, NodeInfo, the actor, the
 * posts' Articles, the outbox and followers collections, and the inboxes (signatures checked: 401
 * without a valid one). Its only queue is the inbox's, which is the site's job queue
 * (./inbox-queue.server.ts, decision 048): deliveries never go through Fedify's sendActivity, but
 * are the site's own durable jobs (./delivery.server.ts).
 */
import { createFederation, type Federation } from "@fedify/fedify";
import { Article, Endpoints, Image, Person } from "@fedify/vocab";
import { count, eq } from "drizzle-orm";

import { sitePhoto } from "~/features/site";
import { readProfile } from "~/features/site/index.server";
import { siteConfig } from "~/site.config";
import type { Database } from "../../../database/db.server";
import { blogPosts, socialFollowers } from "../../../database/schema";
import packageJson from "../../../package.json";
import { articleOf } from "./article.server";
import { registerCollections } from "./collections.server";
import { safeDocumentLoader, signedDocumentLoader } from "./document-loader.server";
import { registerInbox } from "./inbox.server";
import { SiteInboxQueue } from "./inbox-queue.server";
import { ownerHandle } from "./handle.server";
import { ownerKeyPair } from "./keys.server";
import { SocialKvStore } from "./kv.server";
import { AP_PATHS, OWNER_IDENTIFIER } from "./urls";

export type SocialFederation = Federation<void>;

export type FederationConfig = { db: Database; siteUrl: string };

const federations = new WeakMap<Database, SocialFederation>();

/** The site's Federation for this database, made on first use. */
export function federationFor(config: FederationConfig): SocialFederation {
  let federation = federations.get(config.db);
  if (!federation) {
    federation = makeFederation(config);
    federations.set(config.db, federation);
  }
  return federation;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

function makeFederation({ db, siteUrl }: FederationConfig): SocialFederation {
  const kv = new SocialKvStore(db);
  const loader = safeDocumentLoader(kv);
  const federation = createFederation<void>({
    kv,
    origin: new URL(siteUrl).origin,
    // Remote documents and keys through safeFetch, which applies FETCH_ALLOW_PRIVATE itself
    // (Fedify refuses allowPrivateAddress beside a loader of one's own).
    documentLoaderFactory: () => loader,
    contextLoaderFactory: () => loader,
    authenticatedDocumentLoaderFactory: (identity) => signedDocumentLoader(identity),
    // Mastodon verifies draft-cavage signatures: try them first with a server not met before.
    firstKnock: "draft-cavage-http-signatures-12",
    // Inbox work as jobs of the site's queue, run by the site's worker (never Fedify's own
    // listen loop); no outbox or fan-out queue: Fedify sends nothing of its own accord.
    queue: { inbox: new SiteInboxQueue(db) },
    manuallyStartQueue: true,
  });

  federation
    .setActorDispatcher(AP_PATHS.actor, async (ctx, identifier) => {
      if (identifier !== OWNER_IDENTIFIER) return null;
      const [profile, handle, keys] = await Promise.all([
        readProfile(db),
        ownerHandle(db),
        ctx.getActorKeyPairs(identifier),
      ]);
      const photo = sitePhoto(profile, profile, siteConfig);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: handle,
        name: profile.name,
        summary: profile.about.map((p) => `<p>${escapeHtml(p)}</p>`).join(""),
        url: new URL(`${siteUrl}/`),
        icon: new Image({ url: new URL(photo.src, `${siteUrl}/`), name: photo.alt }),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
        indexable: true,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) =>
      identifier === OWNER_IDENTIFIER ? [await ownerKeyPair(db)] : [],
    )
    .mapHandle(async (_ctx, username) =>
      username.toLowerCase() === (await ownerHandle(db)) ? OWNER_IDENTIFIER : null,
    )
    // WebFinger for the site's own URL: a person (or a test) needs nothing but the address.
    .mapAlias((_ctx, resource) =>
      resource.href === `${siteUrl}/` || resource.href === siteUrl
        ? { identifier: OWNER_IDENTIFIER }
        : null,
    );

  federation.setObjectDispatcher(Article, AP_PATHS.article, async (_ctx, { id }) => {
    if (!/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2 ** 31 - 1) return null;
    return articleOf(db, siteUrl, Number(id));
  });

  federation.setNodeInfoDispatcher(AP_PATHS.nodeInfo, async () => {
    const [[posts], [followers]] = await Promise.all([
      db.select({ n: count() }).from(blogPosts).where(eq(blogPosts.status, "published")),
      db.select({ n: count() }).from(socialFollowers),
    ]);
    return {
      software: { name: packageJson.name, version: packageJson.version },
      protocols: ["activitypub"],
      openRegistrations: false,
      usage: {
        users: { total: 1, activeMonth: 1, activeHalfyear: 1 },
        localPosts: posts?.n ?? 0,
        localComments: 0,
      },
      metadata: { followers: followers?.n ?? 0 },
    };
  });

  registerCollections(federation, { db, siteUrl });
  registerInbox(federation, { db, siteUrl });
  return federation;
}
