/**
 * The visitor's side, for the routes: the subscribe form's answer, the confirmation link and
 * the unsubscribe link (the page's button and RFC 8058's one-click POST alike).
 */
import type { RouterContextProvider } from "react-router";

import { checkConfirm, checkUnsubscribe, linkSubscriberId, subscriberSecret } from "./links.server";
import {
  confirmSubscriber,
  findSubscriber,
  requestSubscription,
  unsubscribe,
} from "./store.server";
import {
  normalizeEmail,
  SUBSCRIBE_FIELDS,
  SUBSCRIBE_RATE_LIMIT,
  SUBSCRIBE_TEXT,
  type SubscribeOutcome,
} from "./subscribe";
import type { LinkState } from "./link-texts";
import { appContext } from "~/context";
import { retryAfter } from "~/lib/limits";
import { errorMessage, logEvent } from "~/lib/log.server";

export type SubscribeAnswer = {
  status: number;
  body: SubscribeOutcome;
  headers?: Record<string, string>;
};

const failure = (status: number, message: string, headers?: Record<string, string>) => ({
  status,
  body: { ok: false, title: SUBSCRIBE_TEXT.heading, message },
  headers,
});

/** The one answer every valid request gets, whatever the address's state. */
const DONE: SubscribeAnswer = {
  status: 200,
  body: { ok: true, title: SUBSCRIBE_TEXT.doneTitle, message: SUBSCRIBE_TEXT.done },
};

/** POST /subscribe: checks, the per-client limit, then the row and its mail (./store.server.ts). */
export async function handleSubscribe(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SubscribeAnswer> {
  const form = await request.formData().catch(() => null);
  const raw = form?.get(SUBSCRIBE_FIELDS.email);
  const email = typeof raw === "string" ? normalizeEmail(raw) : null;
  if (!email) return failure(400, SUBSCRIBE_TEXT.invalid);
  const honeypot = form?.get(SUBSCRIBE_FIELDS.honeypot);
  const spam = typeof honeypot === "string" && honeypot.trim() !== "";
  const { db, env, clientAddress, requestId } = context.get(appContext);
  try {
    const outcome = await requestSubscription(
      db,
      { email, clientAddress, spam },
      env.contactRateLimit,
    );
    if (outcome === "limited") {
      logEvent("warn", "subscribe-rate-limited", { requestId, address: clientAddress });
      return failure(429, SUBSCRIBE_TEXT.limited, {
        "Retry-After": retryAfter(SUBSCRIBE_RATE_LIMIT.windowMs),
      });
    }
  } catch (error) {
    logEvent("error", "subscribe-failed", { requestId, error: errorMessage(error) });
    return failure(500, SUBSCRIBE_TEXT.failed);
  }
  return DONE;
}

/** A link page's answer: what it shows, and its status. */
export type LinkAnswer = { state: LinkState; status: number };

const STATUS: Record<LinkState, number> = {
  ready: 200,
  done: 200,
  expired: 410,
  invalid: 400,
};
const answer = (state: LinkState): LinkAnswer => ({ state, status: STATUS[state] });

/** The subscriber a link names, if its signature (checked by `check`) holds. */
async function linked(
  context: Readonly<RouterContextProvider>,
  query: URLSearchParams,
  check: (secret: string, s: { id: number; email: string }) => boolean | LinkState,
) {
  const { db } = context.get(appContext);
  const id = linkSubscriberId(query);
  const subscriber = id === null ? null : await findSubscriber(db, id);
  if (!subscriber) return { db, subscriber: null, verdict: "invalid" as const };
  const verdict = check(await subscriberSecret(db), subscriber);
  return {
    db,
    subscriber,
    verdict: verdict === true ? ("ready" as const) : verdict === false ? "invalid" : verdict,
  };
}

/**
 * /subscribe/confirm: a GET only shows the link's state and a button (mail scanners follow
 * links); the button's POST confirms. An expired or forged link changes nothing.
 */
export async function confirmLink(
  request: Request,
  context: Readonly<RouterContextProvider>,
  confirm: boolean,
): Promise<LinkAnswer> {
  const query = new URL(request.url).searchParams;
  const { db, subscriber, verdict } = await linked(context, query, (secret, s) => {
    const result = checkConfirm(secret, s, query);
    return result === "ok" ? true : result === "expired" ? "expired" : false;
  });
  if (verdict !== "ready" || !subscriber) return answer(verdict);
  // A subscriber who confirmed already (or left since) sees it done; the link changes nothing.
  if (subscriber.status !== "pending") {
    return answer(subscriber.status === "confirmed" ? "done" : "invalid");
  }
  if (!confirm) return answer("ready");
  await confirmSubscriber(db, subscriber.id);
  return answer("done");
}

/**
 * /unsubscribe: a GET shows a button and changes nothing; a POST (the button, or a mail
 * client's one-click `List-Unsubscribe=One-Click`) unsubscribes at once, its signature the
 * only authority.
 */
export async function unsubscribeLink(
  request: Request,
  context: Readonly<RouterContextProvider>,
  leave: boolean,
): Promise<LinkAnswer> {
  const query = new URL(request.url).searchParams;
  const { db, subscriber, verdict } = await linked(context, query, (secret, s) =>
    checkUnsubscribe(secret, s, query),
  );
  if (verdict !== "ready" || !subscriber) return answer(verdict);
  if (subscriber.status === "unsubscribed") return answer("done");
  if (!leave) return answer("ready");
  await unsubscribe(db, subscriber.id);
  return answer("done");
}
