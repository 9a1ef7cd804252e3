import { once } from "node:events";
import { createServer, type Server } from "node:http";

import { generateCryptoKeyPair, signRequest } from "@fedify/fedify";
import { CryptographicKey, Endpoints, Image, Person } from "@fedify/vocab";

/** A POST the peer received: its path, headers (lower-cased names) and JSON body. */
export type Received = {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
};

/**
 * A remote ActivityPub actor on loopback for the federation's integration tests: its actor
 * document and key served over HTTP (the site fetches them to check signatures), its inboxes
 * recording what the site delivers (answered with `status`, 202 unless a test says otherwise;
 * the actor document with `actor`, 200 unless a test makes the peer fail),
 * and requests signed with its key by Fedify's own signRequest (draft-cavage, as Mastodon).
 */
export async function startPeer(port: number, name = "peer") {
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const other = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const base = `http://localhost:${port}`;
  const actorId = `${base}/users/${name}`;
  const keyId = `${actorId}#main-key`;
  const person = new Person({
    id: new URL(actorId),
    preferredUsername: name,
    name: `Peer ${name}`,
    url: new URL(`${base}/@${name}`),
    icon: new Image({ url: new URL(`${base}/avatar.png`) }),
    inbox: new URL(`${actorId}/inbox`),
    endpoints: new Endpoints({ sharedInbox: new URL(`${base}/inbox`) }),
    publicKey: new CryptographicKey({
      id: new URL(keyId),
      owner: new URL(actorId),
      publicKey: keys.publicKey,
    }),
  });
  const actorJson = JSON.stringify(await person.toJsonLd());
  const received: Received[] = [];
  const answers = { status: 202, actor: 200 };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      if (req.method === "GET" && path === `/users/${name}`) {
        res.writeHead(answers.actor, { "content-type": "application/activity+json" });
        return res.end(answers.actor === 200 ? actorJson : "{}");
      }
      if (req.method === "POST") {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.headers)) headers[key] = String(value);
        received.push({
          path,
          headers,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
        });
        res.writeHead(answers.status);
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");

  /** A POST of `activity` to `url`, signed with this actor's key (or `forged`: another key). */
  async function signed(url: string, activity: unknown, { forged = false } = {}) {
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify(activity),
    });
    return signRequest(request, forged ? other.privateKey : keys.privateKey, new URL(keyId));
  }

  let counter = 0;
  return {
    base,
    actorId,
    keyId,
    received,
    answers,
    /** A fresh activity id of this peer's. */
    id: (kind: string) => `${base}/activities/${kind}/${++counter}`,
    signed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Peer = Awaited<ReturnType<typeof startPeer>>;
