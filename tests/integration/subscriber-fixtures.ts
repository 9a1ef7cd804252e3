import { once } from "node:events";
import type { AddressInfo } from "node:net";

import { RouterContextProvider } from "react-router";
import { SMTPServer } from "smtp-server";

import { appContext } from "../../app/context";
import { mailTransportFrom } from "../../app/features/contact/index.server";
import { confirmMailJob } from "../../app/features/subscribers/index.server";
import { parseEnv } from "../../app/lib/env.server";
import { claimJob, runJob } from "../../app/lib/jobs.server";
import type { TestDatabase } from "./databases";

export const SITE_URL = "https://blog.example.dev";

/** A real SMTP server on loopback that records what it receives. */
export async function smtpPeer() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail's text as written: quoted-printable's soft breaks and escapes undone. */
export const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The confirmation link in a received mail (its plain-text part). */
export function linkIn(raw: string): string {
  const link = /https:\/\/blog\.example\.dev\/subscribe\/confirm\?[^\s"<]+/.exec(decoded(raw));
  if (!link) throw new Error(`No confirmation link in:\n${raw}`);
  return link[0];
}

/** What the server hands the handlers: this database, a client address, the settings. */
export function contextFor(database: TestDatabase, clientAddress = "10.0.0.1", rateLimit = 5) {
  const context = new RouterContextProvider();
  const env = { ...parseEnv({ SITE_URL }), contactRateLimit: rateLimit };
  context.set(appContext, { db: database.db, env, clientAddress });
  return context;
}

/** A form's POST to `url`, as a browser without JavaScript sends it. */
export const formPost = (url: string, fields: Record<string, string>) =>
  new Request(new URL(url, SITE_URL), { method: "POST", body: new URLSearchParams(fields) });

/** Runs every due confirmation job with a transport to `smtpUrl` (null: none configured). */
export async function runConfirmJobs(database: TestDatabase, smtpUrl: string | null) {
  const env = parseEnv(smtpUrl ? { SMTP_URL: smtpUrl } : {});
  const handler = confirmMailJob(() => ({
    transport: mailTransportFrom(env),
    from: "site@example.dev",
    siteUrl: SITE_URL,
  }));
  const outcomes = [];
  for (;;) {
    const job = await claimJob(database.db, [handler.kind]);
    if (!job) return outcomes;
    outcomes.push(await runJob(database.db, handler, job));
  }
}
