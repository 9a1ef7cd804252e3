import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { appContext, type AppContext } from "~/context";

import { CONTACT_RATE_LIMIT, CONTACT_TEXT } from "./message";
import { submitContact } from "./outbox.server";
import { handleContact } from "./submit.server";
import { SECOND_MS } from "~/lib/format";

vi.mock("./outbox.server", () => ({ submitContact: vi.fn() }));

const context = () => {
  const provider = new RouterContextProvider();
  provider.set(appContext, {
    db: {},
    env: { contactRateLimit: CONTACT_RATE_LIMIT.messages },
    clientAddress: "10.0.0.1",
    wakeDelivery: vi.fn(),
  } as unknown as AppContext);
  return provider;
};

const post = (fields: Record<string, string>) =>
  new Request("http://x/api/contact", { method: "POST", body: new URLSearchParams(fields) });

const ok = { name: " Ana ", email: "ana@example.com", message: "Hola" };

describe("handleContact", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers an address over the limit 429, asking it to wait out the window", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.mocked(submitContact).mockResolvedValueOnce("limited");
    const answer = await handleContact(post(ok), context());
    expect(answer).toMatchObject({
      status: 429,
      body: { ok: false, title: CONTACT_TEXT.errorTitle, message: CONTACT_TEXT.failed },
      fields: ok,
      headers: { "Retry-After": String(CONTACT_RATE_LIMIT.windowMs / SECOND_MS) },
    });
    expect(answer.headers!["Retry-After"]).toBe("600");
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('"event":"contact-rate-limited"'));
  });

  it("stores a valid message, with the honeypot's verdict, and answers the success toast", async () => {
    vi.mocked(submitContact).mockResolvedValueOnce("stored");
    const answer = await handleContact(post({ ...ok, website: "x" }), context());
    expect(answer).toEqual({
      status: 200,
      body: { ok: true, title: CONTACT_TEXT.successTitle, message: CONTACT_TEXT.sent },
      fields: ok,
    });
    expect(vi.mocked(submitContact).mock.calls.at(-1)![1]).toEqual({
      ...ok,
      clientAddress: "10.0.0.1",
      spam: true,
    });
  });

  it("checks emptiness before the e-mail, and keeps the fields", async () => {
    const answer = await handleContact(post({ ...ok, email: "bad", message: " " }), context());
    expect(answer).toMatchObject({ status: 400, body: { message: CONTACT_TEXT.missing } });
    expect(answer.fields.email).toBe("bad");
  });
});
