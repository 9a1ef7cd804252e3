import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

import { sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { appMeta } from "../../../database/schema";
import { CONFIRM_LINK_VALID_MS } from "./subscribe";

/** How long a confirmation link works after it is mailed (declared with the form's texts). */
export { CONFIRM_LINK_VALID_MS };

/** Where the links lead (the site's own routes). */
export const SUBSCRIBER_PATHS = {
  confirm: "/subscribe/confirm",
  unsubscribe: "/unsubscribe",
} as const;

/** The key in app_meta of the secret that signs subscribers' links (made once, kept in backups). */
const SECRET_KEY = "subscriber_link_secret";

/**
 * The secret that signs confirmation and unsubscribe links: made on first use, stored in the
 * database so every instance signs alike and a restored backup keeps old links working.
 */
export async function subscriberSecret(db: Database): Promise<string> {
  await db
    .insert(appMeta)
    .values({ key: SECRET_KEY, value: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  const rows = await db
    .select({ value: appMeta.value })
    .from(appMeta)
    .where(sql`${appMeta.key} = ${SECRET_KEY}`);
  return rows[0]!.value;
}

type Signed = { id: number; email: string };

const sign = (secret: string, text: string) =>
  createHmac("sha256", secret).update(text).digest("base64url");

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const confirmText = (s: Signed, expires: number) => `confirm:${s.id}:${s.email}:${expires}`;
const unsubscribeText = (s: Signed) => `unsubscribe:${s.id}:${s.email}`;

/** The confirmation link mailed to a new address: valid CONFIRM_LINK_VALID_MS from `now`. */
export function confirmUrl(siteUrl: string, secret: string, s: Signed, now = Date.now()): string {
  const expires = Math.floor((now + CONFIRM_LINK_VALID_MS) / 1000);
  const query = new URLSearchParams({
    s: String(s.id),
    e: String(expires),
    t: sign(secret, confirmText(s, expires)),
  });
  return new URL(`${SUBSCRIBER_PATHS.confirm}?${query}`, siteUrl).href;
}

/** A subscriber's unsubscribe link (footer and `List-Unsubscribe`): it never expires. */
export function unsubscribeUrl(siteUrl: string, secret: string, s: Signed): string {
  const query = new URLSearchParams({ s: String(s.id), t: sign(secret, unsubscribeText(s)) });
  return new URL(`${SUBSCRIBER_PATHS.unsubscribe}?${query}`, siteUrl).href;
}

/** A link's query as read back: the subscriber it names, if its signature holds. */
export const linkSubscriberId = (query: URLSearchParams): number | null => {
  const id = Number(query.get("s"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/**
 * Whether a confirmation link's query is this subscriber's and still valid: "ok", "expired"
 * (signed, but older than CONFIRM_LINK_VALID_MS) or "invalid".
 */
export function checkConfirm(
  secret: string,
  s: Signed,
  query: URLSearchParams,
  now = Date.now(),
): "ok" | "expired" | "invalid" {
  const expires = Number(query.get("e"));
  const token = query.get("t") ?? "";
  if (!Number.isSafeInteger(expires) || !same(token, sign(secret, confirmText(s, expires)))) {
    return "invalid";
  }
  return expires * 1000 < now ? "expired" : "ok";
}

/** Whether an unsubscribe link's query is this subscriber's. */
export const checkUnsubscribe = (secret: string, s: Signed, query: URLSearchParams): boolean =>
  same(query.get("t") ?? "", sign(secret, unsubscribeText(s)));
