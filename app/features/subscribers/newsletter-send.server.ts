/**
 * One round of the newsletter's send worker (server/newsletter.ts): take from the shared
 * budget, claim that many due rows, send each, and mark it the moment the mail server answers.
 */
import type { Database } from "../../../database/db.server";
import { unsubscribeUrl, subscriberSecret } from "./links.server";
import {
  newsletterMailFor,
  renderNewsletter,
  type NewsletterSite,
  type RenderedNewsletter,
} from "./newsletter-mail.server";
import {
  claimSends,
  hasDueSends,
  markSendFailed,
  markSent,
  markSkipped,
  NEWSLETTER_SENDING,
  releaseSends,
  returnBudget,
  takeBudget,
  type ClaimedSend,
} from "./newsletter.server";
import type { MailTransport } from "~/features/contact/index.server";
import { getPost } from "~/features/posts/index.server";
import { errorMessage, logEvent } from "~/lib/log.server";

export type NewsletterSender = {
  db: Database;
  transport: MailTransport;
  site: NewsletterSite;
  /** NEWSLETTER_RATE: messages per minute, all instances together. */
  perMinute: number;
  /** True once the worker is stopping: the round ends after the mail in hand. */
  stopping: () => boolean;
};

/** What a round did: how many it sent, and when to look again (null: when woken or polled). */
export type RoundResult = { sent: number; againInMs: number | null };

/** The posts' rendered mails, by post id: a post is read and rendered once per process. */
const rendered = new Map<number, Promise<RenderedNewsletter | null>>();
/** Few posts are sent at once; the oldest rendering goes first beyond this. */
const RENDERED_KEPT = 8;

function renderedPost(db: Database, site: NewsletterSite, postId: number) {
  let entry = rendered.get(postId);
  if (!entry) {
    entry = getPost(db, postId).then((post) =>
      post && post.status === "published"
        ? renderNewsletter({ ...post, description: post.description }, site)
        : null,
    );
    entry.catch(() => rendered.delete(postId));
    rendered.set(postId, entry);
    if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  }
  return entry;
}

/** Sends one claimed row; false when the worker should stop after it. */
async function sendOne(sender: NewsletterSender, secret: string, send: ClaimedSend) {
  const { db, transport, site } = sender;
  if (send.subscriberStatus !== "confirmed") {
    await markSkipped(db, send.id, "unsubscribed");
    return;
  }
  const mail = await renderedPost(db, site, send.postId);
  if (!mail) {
    rendered.delete(send.postId);
    await markSkipped(db, send.id, "the post is no longer public");
    return;
  }
  const unsubscribe = unsubscribeUrl(site.url, secret, {
    id: send.subscriberId,
    email: send.email,
  });
  try {
    await transport.send(newsletterMailFor(mail, site, { ...send, unsubscribeUrl: unsubscribe }));
  } catch (error) {
    const text = errorMessage(error);
    const then = await markSendFailed(db, send, text);
    logEvent("error", "newsletter-send-failed", {
      id: send.id,
      attempt: send.attempts,
      then,
      error: text,
    });
    return;
  }
  await markSent(db, send.id);
}

/**
 * Sends what the budget allows of what is due. Rows claimed and not sent because the worker is
 * stopping are given back at once (a dead worker's wait for their lease to lapse).
 */
export async function sendNewsletterRound(sender: NewsletterSender): Promise<RoundResult> {
  const { db, perMinute } = sender;
  if (!(await hasDueSends(db))) return { sent: 0, againInMs: null };
  const { granted, waitMs } = await takeBudget(db, NEWSLETTER_SENDING.claimBatch, perMinute);
  if (granted === 0) return { sent: 0, againInMs: waitMs };
  const batch = await claimSends(db, granted);
  await returnBudget(db, granted - batch.length, perMinute);
  if (batch.length === 0) return { sent: 0, againInMs: null };
  const secret = await subscriberSecret(db);
  let sent = 0;
  for (const [i, send] of batch.entries()) {
    if (sender.stopping()) {
      await releaseSends(db, batch.slice(i));
      break;
    }
    await sendOne(sender, secret, send);
    sent += 1;
  }
  return { sent, againInMs: 0 };
}
