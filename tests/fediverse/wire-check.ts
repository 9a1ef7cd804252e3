/**
 * The wire-format checker: what Mastodon documents it needs from a delivery, checked on the raw
 * request with node:crypto (none of Fedify's code): an ActivityPub content type, a draft-cavage
 * `Signature` with a keyId, `rsa-sha256`, covering `(request-target) host date digest` (Mastodon
 * requires those four for a POST; Fedify adds `content-type`, which Mastodon accepts), a
 * SHA-256 `Digest` of the body, a `Date` within the window, and a signature that verifies with
 * the public key the sending actor publishes.
 */
import { createHash, createPublicKey, verify } from "node:crypto";

/** A POST as it arrived, and what the checker found wrong with it (empty: nothing). */
export type Delivery = {
  path: string;
  headers: Record<string, string>;
  body: string;
  problems?: string[];
};

/** Mastodon's window for `Date` (it refuses requests more than 12 hours off; we ask 5 minutes). */
export const DATE_WINDOW_MS = 5 * 60_000;
const AP_TYPES = [
  /^application\/activity\+json\b/,
  /^application\/ld\+json;\s*profile="https:\/\/www\.w3\.org\/ns\/activitystreams"/,
];

/** What a POST's signature must cover, in Mastodon's documentation. */
export const REQUIRED_SIGNED = ["(request-target)", "host", "date", "digest"];

/** The fields of a draft-cavage Signature header. */
export function parseSignature(header: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of header.matchAll(/(\w+)="([^"]*)"/g)) fields[match[1]!] = match[2]!;
  return fields;
}

const keys = new Map<string, string>();

/** The PEM the key id's actor publishes (fetched once per key id). */
async function publicKeyPem(keyId: string): Promise<string> {
  const known = keys.get(keyId);
  if (known) return known;
  const answer = await fetch(keyId.replace(/#.*$/, ""), {
    headers: { accept: "application/activity+json" },
  });
  const actor = (await answer.json()) as {
    publicKey?: { id: string; publicKeyPem: string } | { id: string; publicKeyPem: string }[];
  };
  const all = [actor.publicKey ?? []].flat();
  const key = all.find((k) => k.id === keyId);
  if (!key) throw new Error(`the actor publishes no key ${keyId}`);
  keys.set(keyId, key.publicKeyPem);
  return key.publicKeyPem;
}

/** Checks one delivery received on `host:port`; returns what is wrong (empty if nothing). */
export async function checkDelivery(
  delivery: Delivery,
  host: string,
  port: number,
  now = Date.now(),
): Promise<string[]> {
  const problems: string[] = [];
  const h = delivery.headers;
  if (!AP_TYPES.some((type) => type.test(h["content-type"] ?? ""))) {
    problems.push(`content-type ${h["content-type"]}`);
  }
  const digest = `SHA-256=${createHash("sha256").update(delivery.body).digest("base64")}`;
  if (h["digest"] !== digest) problems.push(`digest ${h["digest"]} is not ${digest}`);
  const date = Date.parse(h["date"] ?? "");
  if (!(Math.abs(now - date) <= DATE_WINDOW_MS)) problems.push(`date ${h["date"]}`);
  if (h["host"] !== `${host}:${port}`) problems.push(`host ${h["host"]}`);
  const signature = parseSignature(h["signature"] ?? "");
  if (!signature.keyId) problems.push("no Signature keyId");
  if (signature.algorithm !== "rsa-sha256") problems.push(`algorithm ${signature.algorithm}`);
  const covered = (signature.headers ?? "").split(" ");
  for (const needed of REQUIRED_SIGNED) {
    if (!covered.includes(needed)) problems.push(`signed headers ${signature.headers}`);
  }
  if (problems.length > 0 || !signature.signature) return [...problems, "unverifiable"];
  const signed = covered
    .map((name) =>
      name === "(request-target)"
        ? `(request-target): post ${delivery.path}`
        : `${name}: ${h[name] ?? ""}`,
    )
    .join("\n");
  try {
    const key = createPublicKey(await publicKeyPem(signature.keyId!));
    const ok = verify(
      "sha256",
      Buffer.from(signed),
      key,
      Buffer.from(signature.signature, "base64"),
    );
    if (!ok) problems.push("the signature does not verify with the actor's key");
  } catch (error) {
    problems.push(`key: ${String(error)}`);
  }
  return problems;
}
