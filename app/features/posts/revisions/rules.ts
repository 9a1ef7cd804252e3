/** The revisions' rules, said once: the History panel and the server read them from here. */
import { MINUTE_MS } from "~/lib/format";

export const REVISION_RULES = {
  /** Autosaves within this long of the first coalesce into one revision. */
  coalesceMs: 10 * MINUTE_MS,
} as const;
