import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";

import {
  IMPORT_FIELDS,
  IMPORT_INTENTS,
  IMPORT_POLL_MS,
  IMPORT_TEXT,
  type ImportActionData,
  type ImportState,
} from "./admin";

const button =
  "rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800";

/** /admin/import: upload, dry run, `Import`, then the job's progress and its summary. */
export function ImportAdmin({
  latest,
  action,
}: {
  latest: ImportState;
  action: ImportActionData | undefined;
}) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{IMPORT_TEXT.title}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{IMPORT_TEXT.hint}</p>
      <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap gap-3">
        <label className="sr-only" htmlFor="import-file">
          Export file
        </label>
        <input id="import-file" type="file" name={IMPORT_FIELDS.file} />
        <button
          type="submit"
          name={IMPORT_FIELDS.intent}
          value={IMPORT_INTENTS.preview}
          className={button}
        >
          {IMPORT_TEXT.preview}
        </button>
      </Form>
      {action?.kind === "error" ? (
        <p role="alert" className="mt-4 text-red-700 dark:text-red-400">
          {action.message}
        </p>
      ) : null}
      {action?.kind === "plan" ? <PlanPanel plan={action} /> : null}
      {action?.kind === "queued" ? (
        <p role="status" className="mt-4">
          {action.message}
        </p>
      ) : null}
      {latest ? <Progress state={latest} /> : null}
    </main>
  );
}

function PlanPanel({ plan }: { plan: Extract<ImportActionData, { kind: "plan" }> }) {
  return (
    <section data-testid="import-plan" className="mt-6" aria-labelledby="plan-heading">
      <h2 id="plan-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Dry run
      </h2>
      <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm whitespace-pre-wrap dark:bg-slate-900">
        {plan.lines.join("\n")}
      </pre>
      {plan.posts > 0 ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name={IMPORT_FIELDS.id} value={plan.id} />
          <button
            type="submit"
            name={IMPORT_FIELDS.intent}
            value={IMPORT_INTENTS.import}
            className={button}
          >
            {IMPORT_TEXT.confirm} {plan.posts}
          </button>
        </Form>
      ) : (
        <p className="mt-3">{IMPORT_TEXT.nothing}</p>
      )}
    </section>
  );
}

function Progress({ state }: { state: NonNullable<ImportState> }) {
  const revalidator = useRevalidator();
  const working = state.status === "queued" || state.status === "running";
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => void revalidator.revalidate(), IMPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [working, revalidator]);
  return (
    <section data-testid="import-progress" className="mt-6" aria-live="polite">
      <h2 className="text-xl font-semibold text-slate-900 dark:text-white">
        Latest import: {state.fileName}
      </h2>
      {working ? (
        <p className="mt-2">
          {state.total > 0
            ? `Imported ${state.done} of ${state.total} posts…`
            : "Waiting to start…"}
        </p>
      ) : null}
      {state.result ? (
        <div className="mt-2">
          <p>
            Done: {state.result.created} created, {state.result.failed.length} failed,{" "}
            {state.result.skipped} skipped.
          </p>
          {state.result.images ? (
            <p>
              Images: {state.result.images.rehosted} brought here,{" "}
              {state.result.images.failed.length} kept as links to where they were.
            </p>
          ) : null}
          {state.result.images?.failed.length ? (
            <ul className="mt-2 list-disc pl-6" aria-label="Images kept as links">
              {state.result.images.failed.map((f) => (
                <li key={`${f.title}:${f.src}`}>
                  {f.title}: {f.src} ({f.reason})
                </li>
              ))}
            </ul>
          ) : null}
          {state.result.failed.length > 0 ? (
            <ul className="mt-2 list-disc pl-6">
              {state.result.failed.map((f) => (
                <li key={f.title}>
                  {f.title}: {f.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
