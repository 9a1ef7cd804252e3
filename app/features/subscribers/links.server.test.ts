import { describe, expect, it } from "vitest";

import {
  CONFIRM_LINK_VALID_MS,
  checkConfirm,
  checkUnsubscribe,
  confirmUrl,
  linkSubscriberId,
  unsubscribeUrl,
} from "./links.server";

const SITE = "https://example.dev";
const SECRET = "a".repeat(64);
const ANA = { id: 7, email: "ana@example.com" };
const NOW = Date.parse("2026-11-26T12:00:00Z");

const queryOf = (url: string) => new URL(url).searchParams;

describe("subscriber links", () => {
  it("a confirmation link works for its subscriber until it expires", () => {
    const query = queryOf(confirmUrl(SITE, SECRET, ANA, NOW));
    expect(new URL(confirmUrl(SITE, SECRET, ANA, NOW)).pathname).toBe("/subscribe/confirm");
    expect(linkSubscriberId(query)).toBe(7);
    expect(checkConfirm(SECRET, ANA, query, NOW + CONFIRM_LINK_VALID_MS - 1000)).toBe("ok");
    expect(checkConfirm(SECRET, ANA, query, NOW + CONFIRM_LINK_VALID_MS + 1000)).toBe("expired");
  });

  it("refuses a link signed for another address, another secret or a changed expiry", () => {
    const query = queryOf(confirmUrl(SITE, SECRET, ANA, NOW));
    expect(checkConfirm(SECRET, { ...ANA, email: "eve@example.com" }, query, NOW)).toBe("invalid");
    expect(checkConfirm("b".repeat(64), ANA, query, NOW)).toBe("invalid");
    query.set("e", String(Number(query.get("e")) + 3600));
    expect(checkConfirm(SECRET, ANA, query, NOW)).toBe("invalid");
  });

  it("an unsubscribe link is the subscriber's alone", () => {
    const query = queryOf(unsubscribeUrl(SITE, SECRET, ANA));
    expect(checkUnsubscribe(SECRET, ANA, query)).toBe(true);
    expect(checkUnsubscribe(SECRET, { ...ANA, id: 8 }, query)).toBe(false);
    query.set("t", "forged");
    expect(checkUnsubscribe(SECRET, ANA, query)).toBe(false);
    expect(linkSubscriberId(new URLSearchParams("s=-1"))).toBeNull();
  });
});
