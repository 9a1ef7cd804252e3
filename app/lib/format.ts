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
