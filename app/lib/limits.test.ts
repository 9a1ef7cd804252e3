// Every text that states a limit or a delay is built from its constant: these pin that the
// words and header values follow the numbers, so changing a constant cannot leave a stale text.
import { describe, expect, it, vi } from "vitest";

import { CLAIM_MS } from "~/features/contact/outbox.server";
import {
  FAILURE_WINDOW_MS,
  SIGN_IN_RETRY_AFTER,
  SIGN_IN_THROTTLED,
} from "~/features/owner/auth.server";
import { CONTACT_FIELDS, CONTACT_HONEYPOT } from "~/features/contact/message";
import { formatBytes, formatDuration, SECOND_MS } from "./format";
import {
  BODY_LIMITS,
  bodyTooLargeText,
  retryAfter,
  UNAVAILABLE_RETRY_AFTER,
  UNAVAILABLE_RETRY_MS,
} from "./limits";
import { RESEND_TIMEOUT_MS, SMTP_TIMEOUTS_MS } from "~/features/contact/mail.server";
import type * as postRules from "~/features/posts/rules";
import { POST_LIMITS } from "~/features/posts/rules";
import { CONTENT_TOO_LARGE, POST_TOO_LARGE } from "~/features/posts/content.server";

describe("the HTTP layer's texts", () => {
  it("states the form limit it enforces", () => {
    const formTooLarge = bodyTooLargeText(BODY_LIMITS.form);
    expect(formTooLarge).toBe(`The request body is larger than ${formatBytes(BODY_LIMITS.form)}.`);
    expect(formTooLarge).toBe("The request body is larger than 256 KB.");
    expect(bodyTooLargeText(3_000_000)).toBe("The request body is larger than 3 MB.");
  });
  it("asks a client to come back after the 503's delay, in whole seconds", () => {
    expect(UNAVAILABLE_RETRY_AFTER).toBe(String(UNAVAILABLE_RETRY_MS / SECOND_MS));
    expect(UNAVAILABLE_RETRY_AFTER).toBe("5");
    expect(retryAfter(1500)).toBe("2");
  });
  it("fits the longest contact message in any script under the form limit", () => {
    // A UTF-16 code unit is at most 3 bytes of UTF-8, each written %XX: 9 bytes form-encoded.
    const longest = Object.entries(CONTACT_FIELDS).reduce(
      (sum, [name, { maxLength }]) => sum + name.length + 2 + 9 * maxLength,
      CONTACT_HONEYPOT.length + 2,
    );
    expect(longest).toBeLessThan(BODY_LIMITS.form);
  });
});

describe("the post API's texts", () => {
  it("state the content limit a writer can act on", () => {
    const size = formatBytes(POST_LIMITS.contentBytes);
    expect(POST_TOO_LARGE).toBe(`The post is larger than ${size}.`);
    expect(CONTENT_TOO_LARGE).toBe(`The content is larger than ${size}.`);
    expect(size).toBe("1 MB");
  });
  it("follow the limit when it changes", async () => {
    vi.resetModules();
    vi.doMock("~/features/posts/rules", async (load) => ({
      ...(await load<typeof postRules>()),
      POST_LIMITS: { ...POST_LIMITS, contentBytes: 2_000_000 },
    }));
    try {
      const changed = await import("~/features/posts/content.server");
      expect(changed.POST_TOO_LARGE).toBe("The post is larger than 2 MB.");
      expect(changed.CONTENT_TOO_LARGE).toBe("The content is larger than 2 MB.");
      expect(changed.MAX_POST_REQUEST_BYTES).toBe(6_000_000);
    } finally {
      vi.doUnmock("~/features/posts/rules");
      vi.resetModules();
    }
  });
});

describe("the sign-in throttle's texts", () => {
  it("tell the visitor the window, and ask the client to wait that long", () => {
    expect(SIGN_IN_THROTTLED).toContain(`Try again in ${formatDuration(FAILURE_WINDOW_MS)}.`);
    expect(SIGN_IN_THROTTLED).toBe(
      "Too many failed attempts from your address. Try again in an hour.",
    );
    expect(SIGN_IN_RETRY_AFTER).toBe(String(FAILURE_WINDOW_MS / SECOND_MS));
  });
});

describe("the mail transports' timeouts", () => {
  it("end a send inside the outbox's claim, so no other worker sends it meanwhile", () => {
    const smtp = SMTP_TIMEOUTS_MS.connection + SMTP_TIMEOUTS_MS.greeting + SMTP_TIMEOUTS_MS.socket;
    expect(smtp).toBeLessThan(CLAIM_MS);
    expect(RESEND_TIMEOUT_MS).toBeLessThan(CLAIM_MS);
  });
});
