import { useState } from "react";
import { useFetcher, type FetcherWithComponents } from "react-router";

import { buttonClass } from "~/ui/button";
import { FormStatus, labelClass } from "~/ui/fields";

import { EDITOR_ACTIONS } from "./actions";
import { EditorSection } from "./editor-section";
import { useFormResult, type FormResult, type ImportPreview } from "./form-result";
import { CancelButton, IntentButton } from "./form-buttons";

/** The export link, and the import: a file checked and previewed, applied once confirmed. */
export function ResumeSection() {
  const fetcher = useFetcher();
  const result = useFormResult("import", fetcher);
  // Cancel hides this preview; the next import's shows.
  const [dismissed, setDismissed] = useState<FormResult | null>(null);
  const preview = result?.ok && result !== dismissed ? result.preview : undefined;

  return (
    <EditorSection id="resume" title="JSON Resume">
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        The profile, experience and education as a{" "}
        <a href="https://jsonresume.org" className="text-sky-800 underline dark:text-sky-300">
          JSON Resume
        </a>{" "}
        document, the open standard recruiters&apos; tools read. It is public at /resume.json.
      </p>
      <a
        href="/resume.json"
        download="resume.json"
        className={buttonClass({ variant: "secondary", size: "sm", className: "mt-4" })}
      >
        Export JSON Resume
      </a>
      <ImportForm fetcher={fetcher} result={result} previewed={preview !== undefined} />
      {preview ? (
        <ConfirmImportForm
          fetcher={fetcher}
          preview={preview}
          onCancel={() => setDismissed(result ?? null)}
        />
      ) : null}
    </EditorSection>
  );
}

/** The file to import, and what is wrong with the last one. */
function ImportForm({
  fetcher,
  result,
  previewed,
}: {
  fetcher: FetcherWithComponents<unknown>;
  result: FormResult | undefined;
  previewed: boolean;
}) {
  const errors = result?.ok === false ? Object.entries(result.errors ?? {}) : [];
  return (
    <fetcher.Form
      method="post"
      action={EDITOR_ACTIONS.resume}
      encType="multipart/form-data"
      aria-label="Import JSON Resume"
      className="mt-6 space-y-3"
    >
      <label htmlFor="resume-file" className={labelClass}>
        JSON Resume file
      </label>
      <input
        id="resume-file"
        type="file"
        name="file"
        accept="application/json,.json"
        className="block text-sm text-slate-800 dark:text-slate-200"
      />
      <div className="flex flex-wrap items-center gap-3">
        <IntentButton intent="preview" disabled={fetcher.state !== "idle"}>
          Import JSON Resume
        </IntentButton>
        <FormStatus
          ok={result?.ok}
          message={previewed ? "Check the changes below, then confirm." : result?.message}
        />
      </div>
      {errors.length > 0 ? (
        <ul
          className="list-disc pl-6 text-sm text-red-800 dark:text-red-300"
          aria-label="Fields to fix"
        >
          {errors.map(([path, message]) => (
            <li key={path}>
              <code>{path}</code>: {message}
            </li>
          ))}
        </ul>
      ) : null}
    </fetcher.Form>
  );
}

/** What the import changes, with Confirm import (the checked document goes back with it). */
function ConfirmImportForm({
  fetcher,
  preview,
  onCancel,
}: {
  fetcher: FetcherWithComponents<unknown>;
  preview: ImportPreview;
  onCancel: () => void;
}) {
  return (
    <fetcher.Form
      method="post"
      action={EDITOR_ACTIONS.resume}
      // Multipart, like the file: the document travels as it is, not percent-encoded to thrice
      // its size, so one body limit fits both steps.
      encType="multipart/form-data"
      aria-label="Confirm import"
      className="mt-6 space-y-4"
    >
      <input type="hidden" name="document" value={preview.document} />
      <h3 className="text-lg font-semibold text-slate-900 dark:text-white">
        What the import changes
      </h3>
      {preview.changes.length > 0 ? (
        <ChangesTable changes={preview.changes} />
      ) : (
        <p className="text-sm">The profile's text stays the same.</p>
      )}
      <EntryChanges title="Experience" change={preview.experiences} />
      <EntryChanges title="Education" change={preview.education} />
      {preview.ignored.length > 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Not imported (the site has no place for them): {preview.ignored.join(", ")}.
        </p>
      ) : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The photo and the CV stay as they are.
      </p>
      <div className="flex flex-wrap gap-3">
        <IntentButton intent="confirm" disabled={fetcher.state !== "idle"}>
          Confirm import
        </IntentButton>
        <CancelButton onClick={onCancel} />
      </div>
    </fetcher.Form>
  );
}

/** The profile's fields the import changes: now, and after. */
function ChangesTable({ changes }: { changes: ImportPreview["changes"] }) {
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr>
          <th scope="col" className="py-1 pr-4">
            Field
          </th>
          <th scope="col" className="py-1 pr-4">
            Now
          </th>
          <th scope="col" className="py-1">
            After the import
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr
            key={change.field}
            className="border-t border-slate-200 align-top dark:border-slate-700"
          >
            <th scope="row" className="py-1 pr-4">
              {change.field}
            </th>
            <td className="py-1 pr-4 break-words whitespace-pre-wrap">{change.from}</td>
            <td className="py-1 break-words whitespace-pre-wrap">{change.to}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EntryChanges({
  title,
  change,
}: {
  title: string;
  change: { from: string[]; to: string[] };
}) {
  return (
    <div className="text-sm">
      <h4 className="font-semibold">
        {title}: {change.from.length} entries now, {change.to.length} after the import
      </h4>
      <ul className="mt-1 list-disc pl-6">
        {change.to.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
