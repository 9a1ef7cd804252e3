/** Where a save comes from, so an edit conflict can say where the other edit was made. */
import { createHash } from "node:crypto";

import type { ChangedWhere, EditConflict } from "./conflict";
import { EDITOR_WINDOW_HEADER } from "./rules";
import type { RevisionSource, RevisionSummary } from "./store.server";

export { EDITOR_WINDOW_HEADER };

const WINDOW_ID = /^[A-Za-z0-9_-]{8,64}$/;

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\//, "Firefox"],
  [/Chrom(e|ium)\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad/, "iOS"],
  [/Mac OS X/, "macOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** "Firefox on Linux", from a User-Agent header; null when it names neither. */
export function browserOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}

/** The source of a save: the device cookie's token (stored hashed), the window, the browser. */
export function revisionSourceOf(request: Request, deviceToken: string | null): RevisionSource {
  const window = request.headers.get(EDITOR_WINDOW_HEADER);
  return {
    device: deviceToken
      ? createHash("sha256").update(`revision-device:${deviceToken}`).digest("base64url")
      : null,
    session: window && WINDOW_ID.test(window) ? window : null,
    agent: browserOf(request.headers.get("user-agent")),
  };
}

export function changedWhere(other: RevisionSource, here: RevisionSource): ChangedWhere {
  if (other.session !== null && other.session === here.session) return "this-window";
  if (other.device !== null && other.device === here.device) return "another-window";
  return "another-device";
}

/** The 409 answer's conflict for a save refused because `head` came since it began. */
export const conflictOf = (head: RevisionSummary, here: RevisionSource): EditConflict => ({
  revision: head.id,
  savedAt: head.savedAt.toISOString(),
  kind: head.kind,
  where: changedWhere(head, here),
  agent: head.agent,
});
