/**
 * The inbox's work on the site's durable job queue (docs/decisions/048-inbox-on-the-job-queue.md).
 * Fedify checks an inbox POST's signature inline (401 without a valid one), then hands the
 * activity to the `inbox` queue it was given: `SiteInboxQueue`, which stores it as a
 * `social.inbox` job (Fedify's message as the payload) and Fedify answers 202. The site's worker
 * (server/jobs.ts) claims the job, once across instances, and `runInboxTask` gives the message
 * back to Fedify (`processQueuedTask`), which runs the listeners (inbox.server.ts).
 *
 * Retries are the queue's alone: `nativeRetrial` tells Fedify to throw a listener's error instead
 * of queueing a retry of its own, so the job fails and JOB_RETRY's backoff applies.
 */
import { createHash } from "node:crypto";

import type { Message, MessageQueue, MessageQueueEnqueueOptions } from "@fedify/fedify";

import { enqueue, type Job } from "~/lib/jobs.server";
import type { Database } from "../../../database/db.server";
import { isBlocked } from "./blocks.server";
import { socialConfig } from "./config.server";
import { INBOX_JOB } from "./jobs.server";

/** The actor an activity's JSON names (a URL, or an object with an id), else null. */
function actorNamed(activity: unknown): string | null {
  if (typeof activity !== "object" || activity === null) return null;
  let actor = (activity as { actor?: unknown }).actor;
  if (Array.isArray(actor)) actor = actor[0];
  if (typeof actor === "object" && actor !== null) actor = (actor as { id?: unknown }).id;
  return typeof actor === "string" ? actor : null;
}

/** The activity's id, when its JSON has one. */
function idNamed(activity: unknown): string | null {
  if (typeof activity !== "object" || activity === null) return null;
  const id = (activity as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}

/**
 * The job's key: one pending job per activity and sender, however many times (and to however
 * many instances) the sender posts it. Hashed: ids are the sender's text, of any length.
 */
const keyOf = (actor: string, id: string) =>
  `${INBOX_JOB}:${createHash("sha256").update(`${actor}\n${id}`).digest("hex")}`;

/** Fedify's inbox queue, as jobs of the site's queue. Its worker is the site's, not Fedify's. */
export class SiteInboxQueue implements MessageQueue {
  readonly nativeRetrial = true;

  constructor(private readonly db: Database) {}

  async enqueue(message: Message, options?: MessageQueueEnqueueOptions): Promise<void> {
    const activity = message.type === "inbox" ? message.activity : null;
    const actor = actorNamed(activity);
    // A blocked sender's activity is dropped here, before it costs a job (the listeners check
    // again: a block made while the job waits holds too).
    if (actor !== null && (await isBlocked(this.db, actor))) return;
    const id = idNamed(activity);
    await enqueue(this.db, {
      kind: INBOX_JOB,
      key: actor !== null && id !== null ? keyOf(actor, id) : undefined,
      payload: message as unknown as Record<string, unknown>,
      delayMs: options?.delay?.total({ unit: "millisecond" }),
    });
  }

  /** Never called (`manuallyStartQueue`): the site's job worker runs these jobs. */
  listen(): Promise<void> {
    return Promise.reject(new Error("Inbox jobs are run by the site's job worker."));
  }
}

/** A `social.inbox` job: Fedify runs the activity's listener; what it throws fails the job. */
export async function runInboxTask(db: Database, job: Job) {
  const message = job.payload as unknown as Message;
  const { federationFor } = await import("./federation.server");
  await federationFor({ db, siteUrl: socialConfig().siteUrl }).processQueuedTask(
    undefined,
    message,
  );
  const activity = message.type === "inbox" ? message.activity : null;
  return { activity: idNamed(activity), actor: actorNamed(activity) };
}
