import type { Transporter } from "nodemailer";

import type { ContactInput } from "./message";
import type { Env } from "~/lib/env.server";
import { SECOND_MS } from "~/lib/format";

export type Mail = {
  to: string;
  from: string;
  replyTo: string;
  subject: string;
  html: string;
  text: string;
  /** Lets a transport drop a repeat of the same message (Resend's Idempotency-Key). */
  idempotencyKey: string;
  /** Extra headers (a newsletter's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** The Message-ID, `<…@…>`, when the sender fixes it (a newsletter's, one per recipient). */
  messageId?: string;
};

export type MailTransport = {
  name: "smtp" | "resend";
  send(mail: Mail): Promise<void>;
  /** Closes a pooled transport's connections (none to close otherwise). */
  close?(): void;
};

/**
 * A send must end well inside the outbox's claim (CLAIM_MS in app/features/contact/outbox.server.ts), or
 * another worker could send the message again meanwhile; nodemailer's defaults wait up to ten
 * minutes. limits.test.ts checks the sum against the claim.
 */
export const SMTP_TIMEOUTS_MS = {
  connection: 15 * SECOND_MS,
  greeting: 15 * SECOND_MS,
  socket: 45 * SECOND_MS,
} as const;
export const RESEND_TIMEOUT_MS = 30 * SECOND_MS;
/** How much of an error answer from Resend is kept. */
const RESEND_ERROR_MAX_CHARS = 300;

/** Whether a transport is configured (no transport is built to find out). */
export const mailDeliveryConfigured = (env: Env) => Boolean(env.smtpUrl || env.resendApiKey);

/**
 * SMTP when SMTP_URL is set (nodemailer), else the Resend API when RESEND_API_KEY is, else none.
 * `pool`: keep SMTP connections open between messages (the newsletter sends thousands; a new
 * connection per message costs about a tenth of a second).
 */
export function mailTransportFrom(env: Env, { pool = false } = {}): MailTransport | null {
  if (env.smtpUrl) {
    // The timeouts keep a send inside the claim (SMTP_TIMEOUTS_MS); the URL's own query may
    // still set them (the URL wins).
    // nodemailer loads with the first message: a site that sends none starts without it.
    const url = env.smtpUrl;
    let transporter: Promise<Transporter> | undefined;
    const connect = async () => {
      const { default: nodemailer } = await import("nodemailer");
      return nodemailer.createTransport({
        url,
        pool,
        connectionTimeout: SMTP_TIMEOUTS_MS.connection,
        greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
        socketTimeout: SMTP_TIMEOUTS_MS.socket,
      });
    };
    return {
      name: "smtp",
      send: async (mail) => {
        const transport = await (transporter ??= connect());
        await transport.sendMail({
          to: mail.to,
          from: mail.from,
          replyTo: mail.replyTo,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          headers: mail.headers,
          messageId: mail.messageId,
        });
      },
      close: () => {
        void transporter?.then((t) => t.close()).catch(() => {});
      },
    };
  }
  if (env.resendApiKey) {
    const key = env.resendApiKey;
    const endpoint = env.resendApiUrl;
    return {
      name: "resend",
      send: async (mail) => {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
            "Idempotency-Key": mail.idempotencyKey,
          },
          body: JSON.stringify({
            from: mail.from,
            to: [mail.to],
            reply_to: mail.replyTo,
            subject: mail.subject,
            html: mail.html,
            text: mail.text,
            headers: mail.headers,
          }),
          signal: AbortSignal.timeout(RESEND_TIMEOUT_MS),
        });
        if (!response.ok) {
          throw new Error(
            `Resend answered ${response.status}: ${(await response.text()).slice(0, RESEND_ERROR_MAX_CHARS)}`,
          );
        }
      },
      close: () => {},
    };
  }
  return null;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The owner's copy of a contact message: escaped HTML with line breaks kept, and plain text. */
export function contactMail(
  message: ContactInput & { id: number },
  addresses: { to: string; from: string },
): Mail {
  const body = escapeHtml(message.message).replace(/\r?\n/g, "<br>");
  return {
    to: addresses.to,
    from: addresses.from,
    replyTo: message.email,
    subject: `New message from ${message.name}`,
    html: `<p><strong>From:</strong> ${escapeHtml(message.name)} &lt;${escapeHtml(message.email)}&gt;</p><p>${body}</p>`,
    text: `From: ${message.name} <${message.email}>\n\n${message.message}\n`,
    idempotencyKey: `contact-message-${message.id}`,
  };
}
