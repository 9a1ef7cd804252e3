import type { MiddlewareHandler } from "hono";

import {
  ACTIVITY_PATH,
  activityAnswer,
  configureSocial,
  loadFederation,
  INBOX_BODY_LIMIT,
  inboxRateWait,
  negotiatedPage,
  OWNER_IDENTIFIER,
  postIdForUrl,
  wantsActivityPub,
} from "../../app/features/social/index.server";
import { bodyTooLargeText, retryAfter } from "../../app/lib/limits";
import type { Env } from "../../app/lib/env.server";
import type { DatabaseHandle } from "../../database/db.server";
import type { SenderVariables } from "./sender";

/** Paths that are the federation's whatever the Accept. */
const FEDERATION_PATHS = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)$|nodeinfo\/|ap\/)/;
const WEBFINGER_PATH = "/.well-known/webfinger";
const INBOX_PATHS = /^\/ap\/(?:inbox|users\/[^/]+\/inbox)$/;

/** The host that signed a request (its Signature's keyId), else null. */
function signerHost(request: Request): string | null {
  const signature = request.headers.get("signature") ?? request.headers.get("signature-input");
  const keyId = signature && /keyid="([^"]+)"/i.exec(signature)?.[1];
  if (!keyId) return null;
  try {
    return new URL(keyId).host.toLowerCase();
  } catch {
    return null;
  }
}

/** The request's body, or null once it is over `max` bytes (said or read). */
async function bounded(request: Request, max: number): Promise<Buffer<ArrayBuffer> | null> {
  const said = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(said) && said > max) return null;
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      length += chunk.length;
      if (length > max) return null;
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks) as Buffer<ArrayBuffer>;
}

const withVaryAccept = (response: Response) => {
  const vary = response.headers.get("vary");
  if (!vary || !/(^|,)\s*accept\s*(,|$)/i.test(vary)) {
    response.headers.set("Vary", vary ? `${vary}, Accept` : "Accept");
  }
  return response;
};

/**
 * The site's ActivityPub side (app/features/social, Fedify) in front of the pages: WebFinger,
 * NodeInfo and everything under /ap/ go to Fedify, and so do `/` (the actor) and post pages
 * (their Article) asked for as ActivityPub. What Fedify does not answer (a browser asking an
 * /ap/ URL, an unknown path) goes on to the pages.
 */
export function federation({
  env,
  database,
  wakeJobs,
}: {
  env: Env;
  database: DatabaseHandle;
  /** Called after an inbox POST was taken: its activity waits as a `social.inbox` job. */
  wakeJobs?: () => void;
}): MiddlewareHandler<{ Variables: SenderVariables }> {
  configureSocial({ siteUrl: env.siteUrl });
  const site = { db: database.db, siteUrl: env.siteUrl };
  return async (c, next) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    const page = negotiatedPage(path);
    const reading = c.req.method === "GET" || c.req.method === "HEAD";
    const asked = reading && wantsActivityPub(c.req.header("accept"));
    let request = c.req.raw;
    if (page && asked) {
      const target =
        page === "home"
          ? `/ap/users/${OWNER_IDENTIFIER}`
          : await postIdForUrl(site.db, env.siteUrl, `${env.siteUrl}${path}`).then((id) =>
              id === null ? null : `/ap/posts/${id}`,
            );
      if (target === null) return next();
      request = new Request(new URL(target, url), { headers: c.req.raw.headers });
    } else if (!FEDERATION_PATHS.test(path)) {
      if (page) {
        await next();
        try {
          withVaryAccept(c.res);
        } catch {
          // A response with immutable headers (one passed through from a fetch): copied.
          c.res = withVaryAccept(new Response(c.res.body, c.res));
        }
        return;
      }
      return next();
    }
    if (reading && ACTIVITY_PATH.test(path)) {
      // An activity by its id: from the outbox, without Fedify.
      const answer = await activityAnswer(site.db, `${env.siteUrl}${path}`);
      return c.req.method === "HEAD" ? new Response(null, answer) : answer;
    }
    if (c.req.method === "POST" && INBOX_PATHS.test(path)) {
      // The host a signature claims is not checked yet: keyed with the client's address too, a
      // forger spends only its own budget, never the claimed server's. Counted in the database:
      // every instance shares the budget.
      const wait = await inboxRateWait(
        site.db,
        `${signerHost(request) ?? "unsigned"} ${c.get("sender").clientAddress}`,
      );
      if (wait !== null) {
        return c.text("Too many requests from this server.\n", 429, {
          "Retry-After": retryAfter(wait),
        });
      }
      const body = await bounded(request, INBOX_BODY_LIMIT);
      if (body === null) return c.text(bodyTooLargeText(INBOX_BODY_LIMIT), 413);
      request = new Request(request.url, { method: "POST", headers: request.headers, body });
    }
    let passed = false;
    const { federationFor } = await loadFederation();
    const response = await federationFor(site).fetch(request, {
      contextData: undefined,
      onNotFound: () => {
        passed = true;
        return new Response(null, { status: 404 });
      },
      onNotAcceptable: () => {
        passed = true;
        return new Response(null, { status: 406 });
      },
    });
    if (passed && path === WEBFINGER_PATH && request.method === "GET") {
      // An account this site does not have: RFC 7033's 404, not the site's page (CORS as
      // every WebFinger answer, section 5).
      return new Response(null, { status: 404, headers: { "Access-Control-Allow-Origin": "*" } });
    }
    if (passed) return next();
    if (request.method === "POST" && response.ok) wakeJobs?.();
    return page ? withVaryAccept(new Response(response.body, response)) : response;
  };
}
