import { BlockList, isIP } from "node:net";

/**
 * Who a request comes from, behind the proxies the owner trusts (TRUST_PROXY): the address the
 * throttles and the contact limit count, and whether the visitor's connection is https.
 *
 * - From an address not in the list, the socket's peer is the client and every `X-Forwarded-*`
 *   header is ignored (anyone can send one).
 * - From a trusted proxy, the client is the rightmost `X-Forwarded-For` entry that is not itself
 *   a trusted proxy: entries further left were written by the client, and are not believed. An
 *   entry that is not an address stops the walk at the last one believed.
 * - IPv6 clients are counted by their /64: one home or phone gets a whole /64, so counting single
 *   addresses would let one visitor be a billion.
 */
export type TrustedProxies = { list: BlockList; empty: boolean };

/** Parses TRUST_PROXY's entries (addresses or CIDRs); throws with the entry it cannot read. */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const raw of entries) {
    const [address = "", prefix, extra] = raw.split("/");
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`not an address or CIDR: "${raw}"`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`not an address or CIDR: "${raw}"`);
    }
    list.addSubnet(address, bits, type);
  }
  return { list, empty: entries.length === 0 };
}

/** An address as written in a header or by the socket: `::ffff:` and ports taken off. */
export function plainAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value)) value = value.slice(7);
  return isIP(value) === 0 ? null : value;
}

const isTrusted = (trust: TrustedProxies, address: string) =>
  !trust.empty && trust.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");

/** The client's own address (see above), or "unknown" without a socket address. */
export function clientAddressOf(
  trust: TrustedProxies,
  peer: string | undefined,
  forwardedFor: string | null | undefined,
): string {
  let current = peer ? plainAddress(peer) : null;
  if (!current) return "unknown";
  if (!isTrusted(trust, current) || !forwardedFor) return current;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]!);
    if (!hop) break;
    current = hop;
    if (!isTrusted(trust, hop)) break;
  }
  return current;
}

/**
 * The key the throttles count a client by: an IPv4 address itself, an IPv6 address's /64
 * (`2001:db8:1:2::/64`).
 */
export function throttleKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  const prefix = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ""));
  return `${prefix.join(":")}::/64`;
}

/** Whether the visitor's connection is https, as a trusted proxy says (`X-Forwarded-Proto`). */
export function forwardedHttps(
  trust: TrustedProxies,
  peer: string | undefined,
  forwardedProto: string | null | undefined,
): boolean {
  const address = peer ? plainAddress(peer) : null;
  if (!address || !isTrusted(trust, address) || !forwardedProto) return false;
  // The nearest proxy's word: the last value when several were appended.
  return forwardedProto.split(",").at(-1)!.trim().toLowerCase() === "https";
}

/** What the server finds about a request's sender: who to count it as, and whether it is https. */
export type Sender = { clientAddress: string; secure: boolean };

/**
 * Whether the visitor's connection is https. Without trusted proxies the site's own URL says so
 * (a proxy in front that was not declared), and nothing of the request is read: cache hits ask
 * this on every request (server/fast-path.ts). With them, the proxy says so per request.
 */
export function connectionIsHttps(
  trust: TrustedProxies,
  siteIsHttps: boolean,
  peer: () => string | undefined,
  forwardedProto: () => string | null | undefined,
): boolean {
  return trust.empty ? siteIsHttps : forwardedHttps(trust, peer(), forwardedProto());
}

/** A request's sender: its address (clientAddressOf) and whether it is https (connectionIsHttps). */
export function senderOf(
  trust: TrustedProxies,
  siteIsHttps: boolean,
  peer: string | undefined,
  headers: { get(name: string): string | null },
): Sender {
  const address = clientAddressOf(trust, peer, headers.get("x-forwarded-for"));
  return {
    clientAddress: address === "unknown" ? address : throttleKeyOf(address),
    secure: connectionIsHttps(
      trust,
      siteIsHttps,
      () => peer,
      () => headers.get("x-forwarded-proto"),
    ),
  };
}
