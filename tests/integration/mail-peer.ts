import { once } from "node:events";
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";

/** A message as the peer received it: envelope, headers (lower-cased names) and its parts. */
export type ReceivedMail = {
  /** When the peer accepted it (Date.now()). */
  at: number;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  html: string;
  text: string;
};

const unfold = (head: string) => head.replace(/\r?\n[ \t]+/g, " ");

function headersOf(head: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of unfold(head).split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) map.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return map;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === "base64") return Buffer.from(body, "base64").toString("utf8");
  if (encoding?.toLowerCase() === "quoted-printable") {
    // Bytes as escaped (=XX) or as written; the text is ASCII, so one byte per character.
    const soft = body.replace(/=\r?\n/g, "");
    const latin1 = soft.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    return Buffer.from(latin1, "latin1").toString("utf8");
  }
  return body;
}

/** Splits a raw message into its headers and its text/plain and text/html parts (decoded). */
export function parseMail(raw: string, to: string[], headersOnly = false): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const headers = headersOf(raw.slice(0, split));
  if (headersOnly) return { at: Date.now(), to, raw: "", headers, html: "", text: "" };
  const body = raw.slice(split + 4);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1];
  const parts: Record<string, string> = {};
  const chunks = boundary ? body.split(`--${boundary}`).slice(1, -1) : [body];
  for (const chunk of chunks) {
    const at = chunk.indexOf("\r\n\r\n");
    const partHeaders = boundary ? headersOf(chunk.slice(0, at)) : headers;
    const content = boundary ? chunk.slice(at + 4) : chunk;
    const type = (partHeaders.get("content-type") ?? "text/plain").split(";")[0]!.trim();
    const decoded = decodeBody(
      content.replace(/\r\n$/, ""),
      partHeaders.get("content-transfer-encoding"),
    );
    parts[type] = decoded.replace(/\r\n/g, "\n");
  }
  return {
    at: Date.now(),
    to,
    raw,
    headers,
    html: parts["text/html"] ?? "",
    text: parts["text/plain"] ?? "",
  };
}

/**
 * A real SMTP server on loopback that records what it receives, and can refuse the next
 * `refuseNext` messages with a temporary error. `headersOnly`: keeps the headers alone (a load
 * test's thousands of mails, read without taking the machine from the servers under test).
 */
export async function smtpPeer(port = 0, { headersOnly = false } = {}) {
  const received: ReceivedMail[] = [];
  let refuseNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    size: 10 * 1024 * 1024,
    // No reverse DNS of 127.0.0.1 per connection (it costs a tenth of a second here).
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          return callback(new Error("451 try again later"));
        }
        const to = session.envelope.rcptTo.map((r) => r.address);
        received.push(parseMail(Buffer.concat(chunks).toString("utf8"), to, headersOnly));
        callback();
      });
    },
  });
  // A client killed mid-connection (a load test's SIGKILL) resets its socket: not the peer's error.
  server.on("error", () => {});
  server.listen(port, "127.0.0.1");
  await once(server.server, "listening");
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    received,
    refuse: (count: number) => (refuseNext = count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
