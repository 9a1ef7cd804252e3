import { formatLongDate } from "~/lib/format";

/** The day a post went public, as words and as a machine-readable `<time>`. */
export function PostDate({ date, className }: { date: Date | string; className: string }) {
  return (
    <time dateTime={new Date(date).toISOString()} className={className}>
      {formatLongDate(date)}
    </time>
  );
}
