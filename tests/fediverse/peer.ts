/**
 * An independent ActivityPub server on loopback, for the federation's end-to-end and load
 * tests: built on Fedify's own server stack (its own createFederation, a MemoryKvStore, an
 * actor with keys generated here), served by node:http, and importing nothing of the site.
 * Every POST it receives is first recorded raw and checked by the wire-format checker
 * (wire-check.ts), then handed to Fedify, whose inbox verifies the signature; what Fedify
 * accepted is kept in `inbox`.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import {
  createFederation,
  generateCryptoKeyPair,
  MemoryKvStore,
  signRequest,
} from "@fedify/fedify";
import {
  Activity,
  Announce,
  Create,
  Endpoints,
  Follow,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Undo,
  type Object as APObject,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";

import { checkDelivery, type Delivery } from "./wire-check";

/** An activity Fedify's inbox accepted (signature verified), as JSON-LD. */
export type Accepted = { type: string; id: string | null; json: Record<string, unknown> };

const AP_ACCEPT = "application/activity+json";

/** Node's request as a fetch Request (the body read in full). */
async function toRequest(req: IncomingMessage, origin: string, body: Buffer): Promise<Request> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
  });
}

/**
 * Starts the peer on `host:port` (host `localhost` or another loopback name, so a test can
 * block the peer's domain without blocking the site's; port 0: any free one). The actor is
 * `/users/{name}`.
 */
export async function startFediversePeer({ port = 0, host = "localhost", name = "alice" } = {}) {
  const server: Server = createServer();
  server.listen(port, host === "localhost" ? "127.0.0.1" : host);
  await once(server, "listening");
  const bound = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${bound}`;
  const rsa = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const inbox: Accepted[] = [];
  const deliveries: Delivery[] = [];

  const federation = createFederation<void>({
    kv: new MemoryKvStore(),
    allowPrivateAddress: true,
    // Mastodon's way first, as the site does.
    firstKnock: "draft-cavage-http-signatures-12",
  });
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier !== name) return null;
      const [pair] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: `Peer ${identifier}`,
        url: new URL(`${origin}/@${identifier}`),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pair?.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === name ? [rsa] : []));
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Activity, async (_ctx, activity) => {
      const json = (await activity.toJsonLd({ format: "compact" })) as Record<string, unknown>;
      inbox.push({ type: String(json.type), id: activity.id?.href ?? null, json });
    });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const request = await toRequest(req, origin, body);
        if (req.method === "POST") {
          const headers: Record<string, string> = {};
          request.headers.forEach((value, key) => (headers[key] = value));
          const delivery: Delivery = { path: req.url ?? "/", headers, body: body.toString("utf8") };
          deliveries.push(delivery);
          delivery.problems = await checkDelivery(delivery, host, bound);
        }
        const response = await federation.fetch(request, { contextData: undefined });
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });

  const ctx = () => federation.createContext(new URL(origin), undefined);
  const actorId = `${origin}/users/${name}`;
  const sender = { identifier: name };
  let counter = 0;
  const newId = (kind: string) => new URL(`${origin}/activities/${kind}/${++counter}`);

  /**
   * Finds `@user@host:port` by WebFinger and fetches the actor it names with Fedify. Fedify's
   * own `acct:` lookup always asks https, which a loopback site without TLS cannot answer, so
   * the WebFinger request itself is made here over http; the rest is Fedify's.
   */
  async function lookupHandle(handle: string) {
    const [, user, server] = /^@?([^@]+)@(.+)$/.exec(handle) ?? [];
    const url = new URL(`http://${server}/.well-known/webfinger`);
    url.searchParams.set("resource", `acct:${user}@${server}`);
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`WebFinger answered ${answer.status}`);
    const jrd = (await answer.json()) as {
      links?: { rel: string; type?: string; href?: string }[];
    };
    const self = jrd.links?.find((l) => l.rel === "self" && l.type?.includes("activity+json"));
    if (!self?.href) throw new Error("WebFinger named no actor");
    return lookup(self.href);
  }

  /** Fetches an ActivityPub object (an actor, an Article) by its URL, through Fedify. */
  async function lookup(url: string): Promise<APObject> {
    const found = await ctx().lookupObject(url);
    if (!found) throw new Error(`nothing found at ${url}`);
    return found;
  }

  /** Sends `activity` to the actor `recipient` (its inbox), signed by this peer. */
  async function send(recipient: APObject, activity: Activity) {
    await ctx().sendActivity(sender, recipient as Person, activity, { preferSharedInbox: false });
  }

  return {
    origin,
    actorId,
    inbox,
    deliveries,
    lookupHandle,
    lookup,
    async follow(actor: APObject) {
      const follow = new Follow({ id: newId("follow"), actor: new URL(actorId), object: actor.id });
      await send(actor, follow);
      return follow;
    },
    async unfollow(actor: APObject, follow: Follow) {
      await send(actor, new Undo({ id: newId("undo"), actor: new URL(actorId), object: follow }));
    },
    /** Replies to `object` (an Article) with a public Note; returns the Note's id. */
    async reply(owner: APObject, object: APObject, html: string) {
      const note = new Note({
        id: newId("note"),
        attribution: new URL(actorId),
        content: html,
        replyTarget: object.id,
        to: PUBLIC_COLLECTION,
        published: Temporal.Now.instant() as unknown as globalThis.Temporal.Instant,
      });
      await send(owner, new Create({ id: newId("create"), actor: new URL(actorId), object: note }));
      return note.id!.href;
    },
    async like(owner: APObject, object: APObject) {
      await send(
        owner,
        new Like({ id: newId("like"), actor: new URL(actorId), object: object.id }),
      );
    },
    async announce(owner: APObject, object: APObject) {
      await send(
        owner,
        new Announce({
          id: newId("announce"),
          actor: new URL(actorId),
          object: object.id,
          to: PUBLIC_COLLECTION,
        }),
      );
    },
    /** The JSON of a Follow from this actor, for the unsigned and forged tests. */
    followJson: (objectId: string) => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: newId("follow").href,
      type: "Follow",
      actor: actorId,
      object: objectId,
    }),
    /** POSTs `json` to `url` with no signature, or signed with a key that is not the actor's. */
    async unsigned(url: string, json: unknown) {
      return fetch(url, {
        method: "POST",
        headers: { "content-type": AP_ACCEPT },
        body: JSON.stringify(json),
      });
    },
    async forged(url: string, json: unknown) {
      const other = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
      const request = new Request(url, {
        method: "POST",
        headers: { "content-type": AP_ACCEPT },
        body: JSON.stringify(json),
      });
      return fetch(await signRequest(request, other.privateKey, new URL(`${actorId}#main-key`)));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FediversePeer = Awaited<ReturnType<typeof startFediversePeer>>;
