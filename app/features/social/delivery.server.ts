/**
 * Deliveries: one `social.deliver` job per inbox and activity, on the site's durable queue
 * (app/lib/jobs.server.ts), so a dead inbox is retried with backoff on its own and never delays
 * the others, and each delivery is done once across instances and restarts. The request is
 * signed by Fedify (draft-cavage HTTP Signatures, rsa-sha256 over `(request-target) host date
 * digest`, as Mastodon verifies) and sent through safeFetch. A 410 Gone drops the followers
 * behind that inbox at once; followers whose inbox failed every delivery for
 * FOLLOWER_DROP_AFTER_MS are dropped.
 */
import { signRequest } from "@fedify/fedify";
import { and, inArray, isNull, lte, sql } from "drizzle-orm";

import { enqueue, type Job } from "~/lib/jobs.server";
import { safeFetch } from "~/lib/safe-fetch.server";
import type { Database } from "../../../database/db.server";
import { socialFollowers } from "../../../database/schema";
import { socialConfig } from "./config.server";
import { ownerKeyPair } from "./keys.server";
import { DELIVER_JOB } from "./jobs.server";
import { FOLLOWER_DROP_AFTER_MS } from "./limits";
import { socialUrls } from "./urls";

export type Delivery = {
  /** The activity as JSON-LD text, serialized once for all its inboxes. */
  body: string;
  activityId: string;
  inbox: string;
  /** The followers (actor URLs) this inbox delivers to: dropped on 410, or failing too long. */
  followers: string[];
};

/** Queues one delivery (a job keyed by activity and inbox: queued twice, it exists once). */
export async function queueDelivery(db: Database, delivery: Delivery) {
  await enqueue(db, {
    kind: DELIVER_JOB,
    key: `${DELIVER_JOB}:${delivery.activityId} ${delivery.inbox}`,
    payload: delivery,
  });
}

/** A delivery that was answered with an error status (thrown: the job is retried). */
export class DeliveryFailed extends Error {
  override name = "DeliveryFailed";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The text to send; a job queued by an older version carries the activity as JSON instead. */
const bodyOf = (delivery: Delivery | { activity: unknown }) =>
  "body" in delivery ? delivery.body : JSON.stringify(delivery.activity);

/** Signs and POSTs one activity to one inbox; throws when it is not accepted. */
export async function deliver(db: Database, siteUrl: string, delivery: Delivery) {
  const { privateKey } = await ownerKeyPair(db);
  const body = bodyOf(delivery);
  // Signed over exactly what Mastodon requires: (request-target) host date digest. The
  // content type is added after signing (Fedify signs every header present).
  // (A string body would bring a content type of its own.)
  const unsigned = new Request(delivery.inbox, {
    method: "POST",
    body: new TextEncoder().encode(body),
  });
  const signed = await signRequest(unsigned, privateKey, new URL(socialUrls(siteUrl).keyId), {
    spec: "draft-cavage-http-signatures-12",
  });
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => (headers[name] = value));
  headers["content-type"] = "application/activity+json";
  const answer = await safeFetch(delivery.inbox, { method: "POST", headers, body });
  if (answer.status >= 200 && answer.status <= 299) return answer.status;
  throw new DeliveryFailed(
    answer.status,
    `${delivery.inbox} answered ${answer.status}: ${answer.text().slice(0, 200)}`,
  );
}

/** After a failed delivery: a 410 drops the inbox's followers; long failures drop them too. */
async function afterFailure(db: Database, delivery: Delivery, error: unknown) {
  const followers = inArray(socialFollowers.actorUrl, delivery.followers);
  if (error instanceof DeliveryFailed && error.status === 410) {
    await db.delete(socialFollowers).where(followers);
    return;
  }
  await db
    .update(socialFollowers)
    .set({ failingSince: sql`now()` })
    .where(and(followers, isNull(socialFollowers.failingSince)));
  await db
    .delete(socialFollowers)
    .where(
      and(
        followers,
        lte(
          socialFollowers.failingSince,
          sql`now() - make_interval(secs => ${FOLLOWER_DROP_AFTER_MS / 1000})`,
        ),
      ),
    );
}

/** A `social.deliver` job: one delivery, and what its answer means for the followers. */
export async function runDelivery(db: Database, job: Job) {
  const delivery = job.payload as Delivery;
  const { siteUrl } = socialConfig();
  try {
    const status = await deliver(db, siteUrl, delivery);
    await db
      .update(socialFollowers)
      .set({ failingSince: null })
      .where(inArray(socialFollowers.actorUrl, delivery.followers));
    return { inbox: delivery.inbox, status };
  } catch (error) {
    await afterFailure(db, delivery, error);
    // Gone: nothing to retry.
    if (error instanceof DeliveryFailed && error.status === 410) {
      return { inbox: delivery.inbox, status: 410, dropped: delivery.followers.length };
    }
    throw error;
  }
}
