/**
 * Structured logs: one JSON object per line on stdout (info) or stderr (warn, error), with the
 * request id that the response also carries in `X-Request-Id` (server/middleware/request-id.ts).
 *
 * Logs are private by construction: nothing a visitor sent (a contact message, an e-mail
 * address), no password hash and no database password may reach them. Errors therefore go
 * through `errorMessage`, never as objects: the ORM puts a failed query's parameters (the
 * values being written) in its error's message and properties.
 */
export type LogLevel = "info" | "warn" | "error";

export function logEvent(level: LogLevel, event: string, fields: Record<string, unknown>) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
}

/** A URL's password (`scheme://user:password@`), anywhere in a text. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)([^\s:/@]*)(?::[^\s/]*)?@/gi;

/** A text with every URL's credentials masked. */
export const withoutCredentials = (text: string) =>
  text.replace(URL_CREDENTIALS, (_match, scheme: string, user: string) =>
    user ? `${scheme}${user}:***@` : `${scheme}***@`,
  );

type DatabaseError = Error & {
  code?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
  dataType?: string;
};

const isDatabaseError = (error: unknown): error is DatabaseError =>
  error instanceof Error && typeof (error as DatabaseError).code === "string";

/**
 * A database error's code and message, with every double-quoted part masked unless it names the
 * schema, table, column, constraint or type the error reports: PostgreSQL quotes both names and
 * values (`invalid input syntax for type uuid: "…"`), and only names are safe to keep. Its
 * `detail` (`Key (email)=(…) already exists`) is never read.
 */
function databaseErrorText(error: DatabaseError): string {
  const names = new Set(
    [error.schema, error.table, error.column, error.constraint, error.dataType].filter(Boolean),
  );
  const message = error.message.replace(/"([^"]*)"/g, (quoted, inner: string) =>
    names.has(inner) ? quoted : '"…"',
  );
  return `${error.code} ${message}`;
}

/**
 * The message of an error, fit for the log: without its stack, without a failed query's
 * parameters (the query text is kept: it holds placeholders, not values), with quoted values of
 * database errors masked and URLs' passwords hidden.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return withoutCredentials(String(error));
  const { query, params } = error as { query?: unknown; params?: unknown };
  if (typeof query === "string" && params !== undefined) {
    const cause = error.cause;
    const reason = isDatabaseError(cause)
      ? databaseErrorText(cause)
      : cause instanceof Error
        ? cause.message
        : "";
    return withoutCredentials(`Failed query: ${query}${reason ? ` (${reason})` : ""}`);
  }
  if (isDatabaseError(error)) return withoutCredentials(databaseErrorText(error));
  // Whatever else wraps a query's parameters in its message, they stop here.
  return withoutCredentials(error.message.split("\nparams:")[0]!);
}
