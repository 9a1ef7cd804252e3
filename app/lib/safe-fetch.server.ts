/**
 * Fetches of anything outside the site (a follower's actor and key, a webmention's source, an
 * endpoint's discovery, an imported image), bounded as OUTGOING_FETCH says: at most so many
 * redirects, so much time in all and so many bytes of body. Addresses are checked after DNS
 * resolution, and the connection goes to the address that was checked, so a name that resolves
 * to a loopback or private address (or changes its answer between two lookups) cannot reach
 * this machine's or its network's services, unless the site allows it (FETCH_ALLOW_PRIVATE:
 * tests, private networks).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

import { OUTGOING_FETCH } from "./limits";

export type FetchRefusedReason =
  "bad-url" | "private-address" | "redirects" | "too-large" | "timeout" | "network";

/** A fetch that was not made, or not finished: why, in `reason`. */
export class FetchRefused extends Error {
  override name = "FetchRefused";
  constructor(
    readonly reason: FetchRefusedReason,
    message: string,
  ) {
    super(message);
  }
}

export type SafeFetchInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** May loopback and private addresses be reached? By default, as the site's policy says. */
  allowPrivate?: boolean;
  /** The most body bytes read; OUTGOING_FETCH.maxBytes by default. */
  maxBytes?: number;
  /** The time allowed in all, redirects included; OUTGOING_FETCH.timeoutMs by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type SafeResponse = {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  text(): string;
};

let allowPrivateByDefault = false;

/** The site's policy, from FETCH_ALLOW_PRIVATE (server/app.ts sets it at start-up). */
export function setOutgoingFetchPolicy(policy: { allowPrivate: boolean }) {
  allowPrivateByDefault = policy.allowPrivate;
}

/** Addresses no fetch may reach unless private ones are allowed (IANA special-purpose ranges). */
// Two lists: BlockList matches an IPv4 address against IPv4-mapped IPv6 ranges too.
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  // IPv4-mapped and translated addresses would reach IPv4's private ranges another way.
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC_V6.addSubnet(network, prefix, "ipv6");
}

/** Is this IP address (v4 or v6) one a public fetch may reach? */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4
    ? !NOT_PUBLIC_V4.check(address, "ipv4")
    : !NOT_PUBLIC_V6.check(address, "ipv6");
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup that refuses names resolving to any address that is not public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const message = `${hostname} resolves to ${refused.address}, which is not a public address`;
      return callback(new FetchRefused("private-address", message), "", 0);
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
};

function parseTarget(url: string | URL): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new FetchRefused("bad-url", `Not a URL: ${String(url)}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new FetchRefused("bad-url", `Only http and https are fetched, not ${target.protocol}`);
  }
  return target;
}

/** One request, no redirects followed: the status, headers and bounded body. */
function requestOnce(
  target: URL,
  init: SafeFetchInit & {
    allowPrivate: boolean;
    maxBytes: number;
    timeoutMs: number;
    signal: AbortSignal;
  },
): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!init.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new FetchRefused("private-address", `${host} is not a public address`);
  }
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, {
      method: init.method ?? "GET",
      headers: { "user-agent": "dev-portfolio", ...init.headers },
      lookup: init.allowPrivate ? undefined : publicOnlyLookup,
      signal: init.signal,
    });
    request.on("error", (error) => reject(refusal(error, init)));
    request.on("response", (response: IncomingMessage) => {
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > init.maxBytes) {
        response.destroy();
        return reject(tooLarge(init.maxBytes));
      }
      const chunks: Buffer[] = [];
      let length = 0;
      response.on("data", (chunk: Buffer) => {
        length += chunk.length;
        if (length > init.maxBytes) {
          response.destroy();
          return reject(tooLarge(init.maxBytes));
        }
        chunks.push(chunk);
      });
      response.on("error", (error) => reject(refusal(error, init)));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: headersOf(response),
          body: new Uint8Array(Buffer.concat(chunks)),
        }),
      );
    });
    request.end(init.body);
  });
}

const tooLarge = (maxBytes: number) =>
  new FetchRefused("too-large", `The answer is larger than ${maxBytes} bytes`);

function refusal(error: unknown, init: { signal: AbortSignal; timeoutMs: number }): FetchRefused {
  if (error instanceof FetchRefused) return error;
  const { signal } = init;
  if (signal.aborted) {
    const reason = signal.reason as unknown;
    if (reason instanceof DOMException && reason.name === "TimeoutError") {
      return new FetchRefused("timeout", `No answer within ${init.timeoutMs} ms`);
    }
    return new FetchRefused("network", "The fetch was cancelled");
  }
  const cause = error as { cause?: unknown };
  if (cause.cause instanceof FetchRefused) return cause.cause;
  return new FetchRefused("network", error instanceof Error ? error.message : String(error));
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * Fetches `url` within OUTGOING_FETCH's bounds, following redirects itself (a 303, or a 301/302
 * after a POST, continues as a GET without a body, as browsers do). Throws FetchRefused when the
 * URL, an address, the redirects, the size or the time is out of bounds; any HTTP status is an
 * answer, not an error.
 */
export async function safeFetch(
  url: string | URL,
  init: SafeFetchInit = {},
): Promise<SafeResponse> {
  const allowPrivate = init.allowPrivate ?? allowPrivateByDefault;
  const maxBytes = init.maxBytes ?? OUTGOING_FETCH.maxBytes;
  const timeoutMs = init.timeoutMs ?? OUTGOING_FETCH.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let target = parseTarget(url);
  let method = init.method ?? "GET";
  let body = init.body;
  for (let redirects = 0; ; redirects++) {
    const answer = await requestOnce(target, {
      ...init,
      method,
      body,
      allowPrivate,
      maxBytes,
      timeoutMs,
      signal,
    });
    const location = answer.headers.get("location");
    if (!REDIRECTS.has(answer.status) || location === null) {
      const bytes = answer.body;
      return { url: target.href, ...answer, text: () => new TextDecoder().decode(bytes) };
    }
    if (redirects >= OUTGOING_FETCH.maxRedirects) {
      throw new FetchRefused(
        "redirects",
        `More than ${OUTGOING_FETCH.maxRedirects} redirects from ${String(url)}`,
      );
    }
    target = parseTarget(new URL(location, target));
    if (answer.status === 303 || (method === "POST" && answer.status <= 302)) {
      method = "GET";
      body = undefined;
    }
  }
}
