import { describe, expect, it } from "vitest";

import {
  clientAddressOf,
  connectionIsHttps,
  forwardedHttps,
  plainAddress,
  senderOf,
  throttleKeyOf,
  trustedProxies,
} from "./client-address.server";
import { parseEnv } from "./env.server";

const none = trustedProxies([]);
const proxies = trustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name.toLowerCase()] ?? null,
});

describe("the client's address behind trusted proxies", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf(none, "203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
    expect(clientAddressOf(none, "::ffff:203.0.113.9", null)).toBe("203.0.113.9");
  });

  it("is the peer when the peer is not a trusted proxy (a spoofed header is ignored)", () => {
    expect(clientAddressOf(proxies, "203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
  });

  it("is the rightmost entry that is not a trusted proxy", () => {
    expect(clientAddressOf(proxies, "127.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    // The client wrote the first entry itself; the proxies appended the rest.
    expect(clientAddressOf(proxies, "127.0.0.1", "1.1.1.1, 198.51.100.7, 10.1.2.3")).toBe(
      "198.51.100.7",
    );
    expect(clientAddressOf(proxies, "::ffff:127.0.0.1", "[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(clientAddressOf(proxies, "127.0.0.1", "198.51.100.7:5555")).toBe("198.51.100.7");
  });

  it("stops at an entry that is no address, at the last one believed", () => {
    expect(clientAddressOf(proxies, "127.0.0.1", "198.51.100.7, <script>, 10.0.0.2")).toBe(
      "10.0.0.2",
    );
    expect(clientAddressOf(proxies, "127.0.0.1", "")).toBe("127.0.0.1");
    expect(clientAddressOf(proxies, "127.0.0.1", "not-an-ip")).toBe("127.0.0.1");
  });

  it("is the leftmost when every entry is a trusted proxy", () => {
    expect(clientAddressOf(proxies, "127.0.0.1", "10.0.0.5, 10.0.0.6")).toBe("10.0.0.5");
  });

  it("counts IPv6 clients by their /64, IPv4 ones by address", () => {
    expect(throttleKeyOf("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(throttleKeyOf("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(throttleKeyOf("2001:0db8:0001:0002:0:0:0:1")).toBe("2001:db8:1:2::/64");
    expect(throttleKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttleKeyOf("::1")).toBe("0:0:0:0::/64");
    expect(throttleKeyOf("198.51.100.7")).toBe("198.51.100.7");
  });

  it("believes X-Forwarded-Proto from a trusted proxy only", () => {
    expect(forwardedHttps(proxies, "127.0.0.1", "https")).toBe(true);
    expect(forwardedHttps(proxies, "127.0.0.1", "http, https")).toBe(true);
    expect(forwardedHttps(proxies, "127.0.0.1", "http")).toBe(false);
    expect(forwardedHttps(proxies, "203.0.113.9", "https")).toBe(false);
    expect(forwardedHttps(none, "127.0.0.1", "https")).toBe(false);
  });

  it("finds a request https from its proxy, or from the site's URL when none is declared", () => {
    const viaProxy = headers({
      "x-forwarded-for": "2001:db8:5:6::7",
      "x-forwarded-proto": "https",
    });
    expect(senderOf(proxies, false, "127.0.0.1", viaProxy)).toEqual({
      clientAddress: "2001:db8:5:6::/64",
      secure: true,
    });
    expect(senderOf(proxies, true, "127.0.0.1", headers({}))).toEqual({
      clientAddress: "127.0.0.1",
      secure: false,
    });
    expect(senderOf(none, true, "203.0.113.9", viaProxy).secure).toBe(true);
    expect(senderOf(none, false, "203.0.113.9", viaProxy)).toEqual({
      clientAddress: "203.0.113.9",
      secure: false,
    });
  });

  it("answers https from the site's URL without reading the request when no proxy is trusted", () => {
    const unread = () => {
      throw new Error("read the request");
    };
    expect(connectionIsHttps(none, true, unread, unread)).toBe(true);
    expect(connectionIsHttps(none, false, unread, unread)).toBe(false);
    expect(
      connectionIsHttps(
        proxies,
        false,
        () => "127.0.0.1",
        () => "https",
      ),
    ).toBe(true);
    expect(
      connectionIsHttps(
        proxies,
        true,
        () => "203.0.113.9",
        () => "https",
      ),
    ).toBe(false);
  });

  it("reads addresses as headers and sockets write them", () => {
    expect(plainAddress(" 198.51.100.7 ")).toBe("198.51.100.7");
    expect(plainAddress("[::1]")).toBe("::1");
    expect(plainAddress("unknown")).toBeNull();
  });
});

describe("TRUST_PROXY", () => {
  it("takes addresses and CIDRs separated by commas or spaces", () => {
    expect(parseEnv({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8 ::1  fd00::/8" }).trustProxy).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
    ]);
    expect(parseEnv({}).trustProxy).toEqual([]);
  });

  it.each(["localhost", "10.0.0.0/33", "10.0.0.1/8/9", "fd00::/129", "10.0.0.x"])(
    "refuses %s, naming the variable",
    (value) => {
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: expected addresses or CIDRs/,
      );
    },
  );
});
