import { createCookie, type RouterContextProvider } from "react-router";

import { appContext } from "~/context";
import { SECOND_MS } from "~/lib/format";
import { DEVICE_TTL_MS, isValidSession, SESSION_TTL_MS } from "~/features/owner/auth.server";

import type { Database } from "../../../database/db.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The session cookie: HttpOnly, SameSite=Lax, and over https Secure with the `__Host-` prefix
 * (no Domain, Path=/), so no subdomain or plain-http page can set or read it. Whether the
 * request is https is the server's finding (app/lib/client-address.server.ts: SITE_URL, or a trusted proxy).
 */
export function sessionCookie(context: Context) {
  return sessionCookieFor(context.get(appContext).secure ?? false);
}

function sessionCookieFor(secure: boolean) {
  return createCookie(secure ? "__Host-session" : "session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: SESSION_TTL_MS / SECOND_MS,
  });
}

/**
 * The device cookie: which browser the owner has signed in on (app/features/owner/auth.server.ts). Set
 * at a successful sign-in, kept a year, sent only to this site; it grants nothing by itself.
 */
export function deviceCookie(context: Context) {
  const secure = context.get(appContext).secure ?? false;
  return createCookie(secure ? "__Host-device" : "device", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: DEVICE_TTL_MS / SECOND_MS,
  });
}

/** The device token a request carries, if any. */
export async function deviceTokenOf(request: Request, context: Context): Promise<string | null> {
  const value: unknown = await deviceCookie(context).parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

async function sessionIdIn(cookieHeader: string | null, secure: boolean) {
  if (!cookieHeader) return null;
  const value: unknown = await sessionCookieFor(secure).parse(cookieHeader);
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function sessionIdOf(request: Request, context: Context): Promise<string | null> {
  return sessionIdIn(request.headers.get("cookie"), context.get(appContext).secure ?? false);
}

/** Whether a Cookie header holds a live owner session (the page cache asks, outside any route). */
export async function hasOwnerSession(
  cookieHeader: string | null,
  secure: boolean,
  db: Database,
): Promise<boolean> {
  const id = await sessionIdIn(cookieHeader, secure);
  return id !== null && isValidSession(db, id);
}

const ownerChecks = new WeakMap<Request, Promise<boolean>>();

/** Whether this request carries a live owner session (looked up once per request). */
export function isOwner(request: Request, context: Context): Promise<boolean> {
  let check = ownerChecks.get(request);
  if (!check) {
    const { secure, db } = context.get(appContext);
    check = hasOwnerSession(request.headers.get("cookie"), secure ?? false, db);
    ownerChecks.set(request, check);
  }
  return check;
}

const REDIRECT_BASE = "http://redirect.invalid";

/**
 * Same-site paths only: anything else (other hosts, `//x`, `/\x`, `/\t/x`, which browsers read
 * as `//x`) goes home. The path is returned as the URL parser normalises it, so control
 * characters and non-ASCII text are percent-encoded and always fit in a Location header.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined): string {
  if (typeof target !== "string" || !target.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(target, REDIRECT_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== REDIRECT_BASE) return "/";
  const path = url.pathname + url.search + url.hash;
  return /^\/[/\\]/.test(path) ? "/" : path;
}
