import { useFetcher } from "react-router";

import { FormStatus } from "~/ui/fields";

import { EditorSection } from "../editor/editor-section";
import { useFormResult } from "../editor/form-result";
import { EntryForm } from "./entry-form";
import { TIMELINES, type Entry, type TimelineKind } from "./timeline";

/** A timeline's editor: a form per entry in the owner's order, then one to add another. */
export function TimelineEditor({ kind, entries }: { kind: TimelineKind; entries: Entry[] }) {
  const timeline = TIMELINES[kind];
  const deleter = useFetcher({ key: `${kind}-delete` });
  const deleted = useFormResult(`${kind}-deleted`, deleter);
  return (
    <EditorSection id={kind} title={timeline.heading}>
      <FormStatus ok={deleted?.ok} message={deleted?.message} />
      {entries.length === 0 ? (
        <p className="mt-4 text-slate-600 dark:text-slate-400">{timeline.empty}</p>
      ) : (
        <ol className="mt-4 space-y-6">
          {entries.map((entry, i) => (
            <li key={entry.id}>
              <EntryForm
                kind={kind}
                entry={entry}
                first={i === 0}
                last={i === entries.length - 1}
              />
            </li>
          ))}
        </ol>
      )}
      <EntryForm kind={kind} />
    </EditorSection>
  );
}
