/**
 * Structured logs: one JSON object per line on stdout (info) or stderr (warn, error), with the
 * request id that the response also carries in `X-Request-Id` (server/http.ts).
 */
export type LogLevel = "info" | "warn" | "error";

export function logEvent(level: LogLevel, event: string, fields: Record<string, unknown>) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
}

/** The message of an error, without its stack (logs keep no stack for expected failures). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
