import { describe, expect, it } from "vitest";

import { retryDelayMs, RETRY } from "./outbox.server";
import { contactMail } from "./mail.server";

describe("contactMail", () => {
  it("addresses the owner, replies to the sender, escapes HTML and keeps line breaks", () => {
    const mail = contactMail(
      {
        id: 7,
        name: "Ana <b>",
        email: "ana@example.com",
        message: "Hi & <script>alert(1)</script>\nLine 2",
      },
      { to: "owner@example.com", from: "site@example.com" },
    );
    expect(mail).toMatchObject({
      to: "owner@example.com",
      from: "site@example.com",
      replyTo: "ana@example.com",
      subject: "New message from Ana <b>",
      idempotencyKey: "contact-message-7",
    });
    expect(mail.html).toBe(
      "<p><strong>From:</strong> Ana &lt;b&gt; &lt;ana@example.com&gt;</p><p>Hi &amp; &lt;script&gt;alert(1)&lt;/script&gt;<br>Line 2</p>",
    );
    expect(mail.text).toBe(
      "From: Ana <b> <ana@example.com>\n\nHi & <script>alert(1)</script>\nLine 2\n",
    );
  });
});

describe("retryDelayMs", () => {
  it("starts at about a minute and doubles up to 6 hours", () => {
    expect(retryDelayMs(1)).toBe(60_000);
    expect(retryDelayMs(2)).toBe(120_000);
    expect(retryDelayMs(5)).toBe(16 * 60_000);
    expect(retryDelayMs(RETRY.maxAttempts)).toBe(6 * 3600_000);
  });
});
