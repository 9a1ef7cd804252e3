import { Writable } from "node:stream";

import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
  isRouteErrorResponse,
  ServerRouter,
} from "react-router";

import { appContext } from "./context";
import { webmentionLinkHeader } from "./features/social";
import { errorMessage, logEvent } from "./lib/log.server";
import { NonceContext } from "./lib/nonce";
import { withWholeBody } from "./lib/whole-body";
import { SITE_SCRIPT, SiteScriptContext } from "./features/site";
import { policyOf } from "./route-policy";
import { RoutePolicyContext } from "./route-policy-context";

export const streamTimeout = 5_000;

/**
 * Every document is sent whole (`onAllReady`): crawlers, caches and visitors without JavaScript
 * get the complete page, and loaders already await their data for documents
 * (app/lib/streaming.ts), so nothing is left to stream. It is collected into one buffer and
 * sent with its length, which lets server/compress.ts pack it in one call (decision 023).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The response's CSP nonce (server/security.ts): on React Router's scripts, React's own and ours.
  // None on a page without React: its two inline scripts are allowed by hash.
  const { nonce, env } = loadContext.get(appContext);
  // Every page names the site's Webmention endpoint (W3C Webmention, 3.1.2).
  responseHeaders.append("Link", webmentionLinkHeader(env.siteUrl));
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <SiteScriptContext value={SITE_SCRIPT}>
          <RoutePolicyContext value={policyOf}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </RoutePolicyContext>
        </SiteScriptContext>
      </NonceContext>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              const document = Buffer.concat(chunks);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set("Content-Length", String(document.length));
              // The body is a stream of the one buffer, carrying the buffer itself beside it:
              // React Router's check that this is a Response makes a Fetch API Response of it,
              // which would copy a byte body, and the middleware that compresses or caches the
              // page reads the buffer as it is (app/lib/whole-body.ts).
              const body = new ReadableStream<Uint8Array>({
                start(controller) {
                  controller.enqueue(document);
                  controller.close();
                },
              });
              resolve(
                withWholeBody(
                  new Response(body, { headers: responseHeaders, status: responseStatusCode }),
                  document,
                ),
              );
              callback();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logServerError(error, request, loadContext);
        },
      },
    );
  });
}

/** Errors thrown in loaders, actions and rendering: one log line with the request id. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who went away is not an error.
  if (request.signal.aborted) return;
  // A 4xx thrown on purpose (a 404, a 401, a 400 with its message) is an answer, not an error.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logServerError(error, request, context);
};

function logServerError(
  error: unknown,
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const url = new URL(request.url);
  logEvent("error", "server-error", {
    requestId: context.get(appContext).requestId,
    method: request.method,
    path: url.pathname,
    error: errorMessage(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
}
