import { Suspense } from "react";
import { Await } from "react-router";

import { formatPeriod } from "~/lib/format";
import { Section } from "~/ui/section";

import type { TimelineItem } from "./timeline";

/**
 * A vertical timeline under a heading. `entries` is still a promise during a client-side
 * navigation (the loading text shows until it resolves) and already an array in a document,
 * rendered directly: even a resolved value in <Await> would suspend once and put the loading
 * text into the HTML.
 */
export function Timeline({
  id,
  title,
  loadingText,
  entries,
}: {
  id: string;
  title: string;
  loadingText: string;
  entries: Promise<TimelineItem[]> | TimelineItem[];
}) {
  return (
    <Section id={id} title={title}>
      {Array.isArray(entries) ? (
        <TimelineList entries={entries} />
      ) : (
        <Suspense fallback={<p className="text-slate-600 dark:text-slate-400">{loadingText}</p>}>
          <Await resolve={entries}>{(resolved) => <TimelineList entries={resolved} />}</Await>
        </Suspense>
      )}
    </Section>
  );
}

function TimelineList({ entries }: { entries: TimelineItem[] }) {
  if (entries.length === 0) return null;
  return (
    <ol className="relative ml-3 border-l-2 border-sky-200 dark:border-sky-900">
      {entries.map((entry) => (
        <li key={entry.id} className="mb-8 ml-6 last:mb-0">
          <span
            aria-hidden="true"
            className="absolute -left-[9px] mt-1.5 size-4 rounded-full border-2 border-white bg-sky-600 dark:border-slate-950 dark:bg-sky-400"
          />
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{entry.heading}</h3>
          <p className="text-slate-600 dark:text-slate-400">
            {formatPeriod(entry.from, entry.to, entry.current)}
          </p>
        </li>
      ))}
    </ol>
  );
}
