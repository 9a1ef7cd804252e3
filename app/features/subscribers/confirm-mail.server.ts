/**
 * The confirmation mail, sent by the job queue (docs/decisions/036-subscriptions.md): a request
 * never waits on a mail server, and a mail that fails is tried again with the queue's backoff.
 */
import type { Database } from "../../../database/db.server";
import { confirmUrl, subscriberSecret } from "./links.server";
import { CONFIRM_MAIL_JOB, findSubscriber } from "./store.server";
import { CONFIRM_LINK_VALID_MS } from "./subscribe";
import { mailTransportFrom, type MailTransport } from "~/features/contact/index.server";
import { parseEnv } from "~/lib/env.server";
import { formatDuration } from "~/lib/format";
import type { Job, JobHandler } from "~/lib/jobs.server";
import { logEvent } from "~/lib/log.server";
import { siteConfig } from "~/site.config";

/** What sending needs: the transport (null: none configured), the sender and the site's URL. */
export type MailSetup = { transport: MailTransport | null; from: string; siteUrl: string };

/** The mail a subscriber gets to confirm: plain text and HTML, one link. */
export function confirmationMail(to: string, link: string, from: string, key: string) {
  const valid = formatDuration(CONFIRM_LINK_VALID_MS);
  const intro = "Someone, hopefully you, asked to get new posts from this site by e-mail.";
  const ignore = "If it was not you, ignore this mail: nothing will be sent.";
  const href = link.replace(/&/g, "&amp;");
  return {
    to,
    from,
    replyTo: from,
    subject: "Confirm your subscription",
    text: `${intro}\n\nTo confirm, open this link within ${valid}:\n${link}\n\n${ignore}\n`,
    html: `<p>${intro}</p><p><a href="${href}">Confirm your subscription</a> (the link works for ${valid}).</p><p>${ignore}</p>`,
    idempotencyKey: key,
  };
}

/**
 * Sends job `job`'s confirmation mail. A subscriber no longer pending (confirmed meanwhile,
 * unsubscribed, removed) gets none. With no transport the job fails and is kept, retried with
 * the queue's backoff, so a mail asked for before delivery was set up is not lost.
 */
export async function sendConfirmation(db: Database, job: Job, setup: MailSetup) {
  const id = Number((job.payload as { id?: unknown }).id);
  const subscriber = Number.isSafeInteger(id) ? await findSubscriber(db, id) : null;
  if (!subscriber || subscriber.status !== "pending") return { id, sent: false };
  if (!setup.transport) {
    logEvent("warn", "subscriber-mail-off", { id, message: "Mail delivery is off." });
    throw new Error("Mail delivery is off: no SMTP_URL or RESEND_API_KEY.");
  }
  const link = confirmUrl(setup.siteUrl, await subscriberSecret(db), subscriber);
  await setup.transport.send(
    confirmationMail(subscriber.email, link, setup.from, `subscriber-confirm-${job.id}`),
  );
  return { id, sent: true };
}

/** The job's handler, sending with what `setup` gives (the environment's, for the server). */
export const confirmMailJob = (setup: () => MailSetup): JobHandler => ({
  kind: CONFIRM_MAIL_JOB,
  // Someone waits for it in their mailbox.
  prompt: true,
  run: (db, job) => sendConfirmation(db, job, setup()),
});

let fromEnvironment: MailSetup | undefined;
/** The server's mail setup: the environment the server started with (parsed once, here too). */
function mailSetupFromEnv(): MailSetup {
  if (!fromEnvironment) {
    const env = parseEnv();
    fromEnvironment = {
      transport: mailTransportFrom(env),
      from: env.mailFrom ?? siteConfig.email,
      siteUrl: env.siteUrl,
    };
  }
  return fromEnvironment;
}

/** The subscribers' kinds of job, for the worker (server/jobs.ts). */
export const SUBSCRIBER_JOBS: readonly JobHandler[] = [confirmMailJob(mailSetupFromEnv)];
