import { z } from "zod";

import { trustedProxies } from "./client-address.server";

import { CONTACT_RATE_LIMIT, NEWSLETTER_RATE } from "./limits";

/**
 * Every environment variable the server reads, parsed once at start-up
 * (docs/product.md#configuration). A wrong value stops the process with a message naming the
 * variable.
 */

const blankIsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

const booleanFlag = z.enum(["true", "false", "1", "0", "yes", "no"], {
  error: "expected true or false",
});

const urlWithProtocols = (protocols: string[], what: string) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `expected ${what}` },
  );

/** TCP's port numbers. */
const PORTS = { min: 1, max: 65535 } as const;
/** The page cache's memory bound, in MiB: its default and the range allowed. */
const PAGE_CACHE_MB = { default: 64, min: 1, max: 4096 } as const;
/**
 * The local copies of uploaded files (server/media/), in MiB on disk under DATA_DIR: default and
 * range; 0 keeps none (every file is read from the database each time).
 */
const MEDIA_CACHE_MB = { default: 256, min: 0, max: 1024 * 1024 } as const;
const MiB = 1024 * 1024;

/** The shortest CDN_PURGE_SECRET taken: an HMAC key anyone could guess signs nothing. */
const CDN_PURGE_SECRET_MIN = 16;

const rawSchema = z.object({
  NODE_ENV: z.preprocess(
    blankIsUnset,
    z.enum(["development", "production", "test"]).default("development"),
  ),
  PORT: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a port number" })
      .int({ error: "expected a whole port number" })
      .min(PORTS.min, { error: `expected a port between ${PORTS.min} and ${PORTS.max}` })
      .max(PORTS.max, { error: `expected a port between ${PORTS.min} and ${PORTS.max}` })
      .default(3000),
  ),
  HOST: optional(z.string()),
  DATABASE_URL: optional(
    urlWithProtocols(["postgres:", "postgresql:"], "a postgres:// or postgresql:// URL"),
  ),
  DATA_DIR: z.preprocess(blankIsUnset, z.string().default("./data")),
  SITE_URL: optional(urlWithProtocols(["http:", "https:"], "an http:// or https:// URL")),
  OWNER_PASSWORD: optional(z.string().min(8, { error: "expected at least 8 characters" })),
  OWNER_EMAIL: optional(z.email({ error: "expected an e-mail address" })),
  SMTP_URL: optional(urlWithProtocols(["smtp:", "smtps:"], "an smtp:// or smtps:// URL")),
  RESEND_API_KEY: optional(z.string()),
  /** Where the Resend API lives (tests point it at a local endpoint). */
  RESEND_API_URL: optional(urlWithProtocols(["http:", "https:"], "an http:// or https:// URL")),
  MAIL_FROM: optional(z.string()),
  SEED_DEMO: optional(booleanFlag),
  /**
   * Contact messages per client address per window (CONTACT_RATE_LIMIT in ./limits.ts);
   * 0 turns the limit off (load tests).
   */
  CONTACT_RATE_LIMIT: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a whole number" })
      .int({ error: "expected a whole number" })
      .min(0, { error: "expected 0 or more" })
      .default(CONTACT_RATE_LIMIT.messages),
  ),
  /** Newsletter messages per minute, all instances together (NEWSLETTER_RATE in ./limits.ts). */
  NEWSLETTER_RATE: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a whole number of messages per minute" })
      .int({ error: "expected a whole number of messages per minute" })
      .min(1, { error: "expected at least 1" })
      .max(NEWSLETTER_RATE.max, { error: `expected at most ${NEWSLETTER_RATE.max}` })
      .default(NEWSLETTER_RATE.perMinute),
  ),
  /** The in-process cache of rendered public pages (server/page-cache/); off for benchmarks. */
  PAGE_CACHE: optional(booleanFlag),
  /** Where the running server writes a backup a day (unset: none), and how many it keeps. */
  BACKUP_DIR: optional(z.string()),
  BACKUP_KEEP: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a whole number" })
      .int({ error: "expected a whole number" })
      .min(1, { error: "expected at least 1" })
      .max(3650, { error: "expected at most 3650" })
      .default(7),
  ),
  /**
   * The proxies in front (addresses or CIDRs, separated by commas or spaces): from them,
   * X-Forwarded-For names the client and X-Forwarded-Proto says whether it came over https
   * (app/lib/client-address.server.ts). Unset: none is trusted, and the socket's peer is the client.
   */
  TRUST_PROXY: optional(
    z.string().refine(
      (value) => {
        try {
          trustedProxies(splitList(value));
          return true;
        } catch {
          return false;
        }
      },
      { error: "expected addresses or CIDRs separated by commas (e.g. 127.0.0.1, 10.0.0.0/8)" },
    ),
  ),
  /**
   * Whether responses say how the page cache answered (`X-Page-Cache: hit|miss|bypass`). Off in
   * production by default: it tells anyone whether a page, such as a search, was asked for
   * before. Tests and development turn it on.
   */
  PAGE_CACHE_HEADER: optional(booleanFlag),
  /** Upper bound of that cache's memory, in megabytes. */
  PAGE_CACHE_MB: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a number of megabytes" })
      .int({ error: "expected a whole number of megabytes" })
      .min(PAGE_CACHE_MB.min, { error: `expected at least ${PAGE_CACHE_MB.min}` })
      .max(PAGE_CACHE_MB.max, { error: `expected at most ${PAGE_CACHE_MB.max}` })
      .default(PAGE_CACHE_MB.default),
  ),
  /**
   * Whether outgoing fetches (a follower's key, a webmention's source, an imported image) may
   * reach loopback and private addresses: tests, and sites on a private network.
   */
  FETCH_ALLOW_PRIVATE: optional(booleanFlag),
  /** Upper bound of the local copies of uploads (DATA_DIR/media-cache), in megabytes. */
  MEDIA_CACHE_MB: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a number of megabytes" })
      .int({ error: "expected a whole number of megabytes" })
      .min(MEDIA_CACHE_MB.min, { error: `expected at least ${MEDIA_CACHE_MB.min}` })
      .max(MEDIA_CACHE_MB.max, { error: `expected at most ${MEDIA_CACHE_MB.max}` })
      .default(MEDIA_CACHE_MB.default),
  ),
  /**
   * Where each page-cache drop also POSTs the changed public URLs, signed with
   * CDN_PURGE_SECRET (server/page-cache/purge.ts, docs/decisions/043-cdn-purge.md).
   */
  CDN_PURGE_URL: optional(urlWithProtocols(["http:", "https:"], "an http:// or https:// URL")),
  CDN_PURGE_SECRET: optional(
    z.string().min(CDN_PURGE_SECRET_MIN, {
      error: `expected at least ${CDN_PURGE_SECRET_MIN} characters`,
    }),
  ),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  siteUrl: string;
  ownerPassword: string | undefined;
  ownerEmail: string | undefined;
  smtpUrl: string | undefined;
  resendApiKey: string | undefined;
  resendApiUrl: string;
  mailFrom: string | undefined;
  seedDemo: boolean;
  contactRateLimit: number;
  /** Newsletter messages per minute, every instance together. */
  newsletterRate: number;
  pageCache: boolean;
  pageCacheBytes: number;
  /** TRUST_PROXY's entries (empty: trust no proxy). */
  trustProxy: string[];
  backupDir: string | undefined;
  backupKeep: number;
  pageCacheHeader: boolean;
  /** How many bytes of uploads' local copies DATA_DIR/media-cache holds at most (0: none). */
  mediaCacheBytes: number;
  /** Outgoing fetches may reach loopback and private addresses (app/lib/safe-fetch.server.ts). */
  fetchAllowPrivate: boolean;
  /** Where page-cache drops are also sent, and the secret that signs them (both or neither). */
  cdnPurge: { url: string; secret: string } | null;
};

/** A setting's list: entries separated by commas or whitespace. */
const splitList = (value: string) => value.split(/[\s,]+/).filter(Boolean);

export class EnvError extends Error {
  override name = "EnvError";
}

const isTrue = (flag: string | undefined) => flag === "true" || flag === "1" || flag === "yes";

const NOT_SHOWN = "a value that is not shown";

/**
 * Secrets never reach the log: passwords and keys are not shown, and a URL setting loses
 * everything between the first `:` of its user part and its last `@`, however malformed it is
 * (an `@` in the password, a missing `//`); one without an `@` is shown only when nothing in it
 * could be a password (a colon followed by anything but a port).
 */
function shownValue(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/PASSWORD|KEY|SECRET/.test(name)) return NOT_SHOWN;
  if (!name.endsWith("_URL")) return JSON.stringify(value);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? "";
  const at = value.lastIndexOf("@");
  if (at >= 0) {
    const userInfo = value.slice(scheme.length, at);
    const colon = userInfo.indexOf(":");
    const shown = colon < 0 ? userInfo : `${userInfo.slice(0, colon)}:***`;
    return JSON.stringify(`${scheme}${shown}${value.slice(at)}`);
  }
  return /:(?!\d+(?:[/?#]|$))/.test(value.slice(scheme.length)) ? NOT_SHOWN : JSON.stringify(value);
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = rawSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const got = shownValue(name, source[name]);
      return `  ${name}: ${issue.message}${got === undefined ? "" : ` (got ${got})`}`;
    });
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const raw = result.data;
  if ((raw.CDN_PURGE_URL === undefined) !== (raw.CDN_PURGE_SECRET === undefined)) {
    throw new EnvError(
      "Invalid environment configuration:\n  CDN_PURGE_SECRET: expected with CDN_PURGE_URL (set both or neither)",
    );
  }
  const embedded = raw.DATABASE_URL === undefined;
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST ?? (raw.NODE_ENV === "production" ? "0.0.0.0" : "127.0.0.1"),
    databaseUrl: raw.DATABASE_URL,
    dataDir: raw.DATA_DIR,
    siteUrl: (raw.SITE_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    ownerPassword: raw.OWNER_PASSWORD,
    ownerEmail: raw.OWNER_EMAIL,
    smtpUrl: raw.SMTP_URL,
    resendApiKey: raw.RESEND_API_KEY,
    resendApiUrl: raw.RESEND_API_URL ?? "https://api.resend.com/emails",
    mailFrom: raw.MAIL_FROM,
    seedDemo: raw.SEED_DEMO === undefined ? embedded : isTrue(raw.SEED_DEMO),
    contactRateLimit: raw.CONTACT_RATE_LIMIT,
    newsletterRate: raw.NEWSLETTER_RATE,
    pageCache: raw.PAGE_CACHE === undefined ? true : isTrue(raw.PAGE_CACHE),
    pageCacheBytes: raw.PAGE_CACHE_MB * MiB,
    trustProxy: raw.TRUST_PROXY ? splitList(raw.TRUST_PROXY) : [],
    backupDir: raw.BACKUP_DIR,
    backupKeep: raw.BACKUP_KEEP,
    fetchAllowPrivate: isTrue(raw.FETCH_ALLOW_PRIVATE),
    pageCacheHeader:
      raw.PAGE_CACHE_HEADER === undefined
        ? raw.NODE_ENV !== "production"
        : isTrue(raw.PAGE_CACHE_HEADER),
    mediaCacheBytes: raw.MEDIA_CACHE_MB * MiB,
    cdnPurge:
      raw.CDN_PURGE_URL === undefined || raw.CDN_PURGE_SECRET === undefined
        ? null
        : { url: raw.CDN_PURGE_URL, secret: raw.CDN_PURGE_SECRET },
  };
}
