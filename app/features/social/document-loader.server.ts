/**
 * Fedify's document loader (remote actors, their keys, objects) through the site's one door for
 * outgoing fetches, app/lib/safe-fetch.server.ts: private and loopback addresses refused unless
 * FETCH_ALLOW_PRIVATE, at most 5 redirects, 10 s and 1 MB. The JSON-LD contexts Fedify ships
 * (ActivityStreams, security) are never fetched. What is fetched is cached in social_kv by
 * Fedify's own kvCache.
 */
import {
  FetchError,
  kvCache,
  preloadedContexts,
  signRequest,
  type DocumentLoader,
  type KvStore,
  type RemoteDocument,
} from "@fedify/fedify";

import { FetchRefused, safeFetch } from "~/lib/safe-fetch.server";

const ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams", application/ld+json;q=0.9';

const JSON_TYPES = /^application\/(?:activity\+json|ld\+json|jrd\+json|json)\b/i;

/**
 * A fetch that may work later (the network, a timeout, a 5xx or 429 answer): the inbox's job
 * fails and the queue tries it again, where a document that is not there or not allowed is
 * simply not used.
 */
export class FetchLater extends FetchError {
  override name = "FetchLater";
}

/** Did this error come from a fetch worth trying again? */
export const isFetchLater = (error: unknown): error is FetchLater => error instanceof FetchLater;

/** Who signs a fetch (servers in authorized-fetch mode ask): a key and its id. */
export type FetchSigner = { keyId: URL; privateKey: CryptoKey };

const signedHeaders = async (url: string, signer: FetchSigner | undefined) => {
  const headers: Record<string, string> = { accept: ACCEPT };
  if (!signer) return headers;
  const request = await signRequest(
    new Request(url, { headers }),
    signer.privateKey,
    signer.keyId,
    {
      spec: "draft-cavage-http-signatures-12",
    },
  );
  request.headers.forEach((value, name) => (headers[name] = value));
  return headers;
};

const fetchDocument = async (
  url: string,
  options: { signal?: AbortSignal } | undefined,
  signer?: FetchSigner,
): Promise<RemoteDocument> => {
  if (Object.hasOwn(preloadedContexts, url)) {
    return { contextUrl: null, documentUrl: url, document: preloadedContexts[url] };
  }
  let answer;
  try {
    const headers = await signedHeaders(url, signer);
    answer = await safeFetch(url, { headers, signal: options?.signal });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const later =
      !(error instanceof FetchRefused) || error.reason === "network" || error.reason === "timeout";
    throw later ? new FetchLater(url, message) : new FetchError(url, message);
  }
  if (answer.status < 200 || answer.status > 299) {
    const message = `HTTP ${answer.status} from ${answer.url}`;
    throw answer.status >= 500 || answer.status === 429
      ? new FetchLater(url, message)
      : new FetchError(url, message);
  }
  const type = answer.headers.get("content-type") ?? "";
  if (!JSON_TYPES.test(type)) throw new FetchError(url, `Not JSON: ${type || "no type"}`);
  let document: unknown;
  try {
    document = JSON.parse(answer.text());
  } catch {
    throw new FetchError(url, "Invalid JSON");
  }
  return { contextUrl: null, documentUrl: answer.url, document };
};

/** The loader Fedify is given (documentLoaderFactory): safeFetch, cached in `kv`. */
export const safeDocumentLoader = (kv: KvStore): DocumentLoader =>
  kvCache({
    loader: (url, options) => fetchDocument(url, options),
    kv,
    prefix: ["_fedify", "remoteDocument"],
  });

/**
 * The loader Fedify uses when a fetch is made as the owner (authenticatedDocumentLoaderFactory:
 * checking a signature that arrived at the owner's inbox, for one): signed, never cached.
 */
export const signedDocumentLoader =
  (signer: FetchSigner): DocumentLoader =>
  (url, options) =>
    fetchDocument(url, options, signer);
