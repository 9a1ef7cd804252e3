import { POST_LIMITS } from "./post-rules";

/**
 * The largest request bodies the server reads, in bytes; larger ones are refused unread with 413
 * (server/http.ts). Which route takes which is declared in app/route-policy.ts.
 */
export const BODY_LIMITS = {
  /** Forms and small JSON: a 10,000-character message in a non-Latin script is 90 KB encoded. */
  form: 256 * 1024,
  /** A post as JSON: escaping can triple its content. */
  post: 3 * POST_LIMITS.contentBytes,
} as const;

/** "256 KB", "3 MB": a byte count as people read it (1 KB = 1,024 bytes, 1 MB = 1,000,000). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000 && bytes % 1_000_000 === 0) return `${bytes / 1_000_000} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}

/** The answer to a body over `limit`. */
export function bodyTooLarge(limit: number): string {
  return `The request body is larger than ${formatBytes(limit)}.`;
}
