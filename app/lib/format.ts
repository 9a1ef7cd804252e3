/**
 * `{from} - {to}`, or `{from} - Present` while the job or study is current
 * (docs/product.md#home).
 */
export function formatPeriod(from: string, to: string | null, current: boolean): string {
  if (current || !to) return `${from} - Present`;
  return `${from} - ${to}`;
}

const longDate = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** en-US long form, e.g. "November 22, 2026" (docs/product.md#constants); shown in UTC. */
export function formatLongDate(date: Date | string): string {
  return longDate.format(typeof date === "string" ? new Date(date) : date);
}

const dateTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** A moment as pages rendered on the server show it, e.g. "November 24, 2026 at 14:05 UTC". */
export function formatDateTime(date: Date | string): string {
  return `${dateTime.format(typeof date === "string" ? new Date(date) : date)} UTC`;
}

/** A whole number as the texts write it: en-US grouping, e.g. "10,000". */
export const formatCount = (n: number) => n.toLocaleString("en-US");

// Units for the limits and delays the texts state, so a constant reads as what it is
// (`10 * MINUTE_MS`) and its text can be built back from it.
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const DURATIONS = [
  ["day", "a day", DAY_MS],
  ["hour", "an hour", HOUR_MS],
  ["minute", "a minute", MINUTE_MS],
  ["second", "a second", SECOND_MS],
] as const;

/**
 * A limit's duration in words, in the largest unit it is a whole number of, so the text never
 * rounds: "an hour", "10 minutes", "90 minutes", "1,500 ms".
 */
export function formatDuration(ms: number): string {
  for (const [unit, one, size] of DURATIONS) {
    if (ms < size || ms % size !== 0) continue;
    const n = ms / size;
    return n === 1 ? one : `${formatCount(n)} ${unit}s`;
  }
  return `${formatCount(ms)} ms`;
}

/** Size units: limits here are round in one base or the other (1 MB = 1,000,000 B; 256 KB = 262,144 B). */
const BYTE_UNITS = [
  ["MB", 1000 ** 2, 1024 ** 2],
  ["KB", 1000, 1024],
] as const;

/**
 * A limit's size in the largest unit it is a whole number of, decimal or binary, so the text
 * never rounds: 1_000_000 → "1 MB", 3_000_000 → "3 MB", 256 * 1024 → "256 KB", 1500 → "1,500 bytes".
 */
export function formatBytes(bytes: number): string {
  for (const [unit, ...sizes] of BYTE_UNITS) {
    for (const size of sizes) {
      if (bytes >= size && bytes % size === 0) return `${formatCount(bytes / size)} ${unit}`;
    }
  }
  return `${formatCount(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
}
