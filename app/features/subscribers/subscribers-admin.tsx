import { Form, Link } from "react-router";

import {
  ADMIN_TEXT,
  IMPORT_FIELDS,
  INTENTS,
  type AdminActionData,
  type ImportPreview,
} from "./admin";
import type { SubscriberStatus } from "../../../database/schema";

/** What the owner's page shows (its route's loader and action data). */
export type SubscribersAdminData = {
  counts: Record<SubscriberStatus | "total", number>;
  search: string;
  page: number;
  pageCount: number;
  total: number;
  subscribers: {
    id: number;
    email: string;
    status: SubscriberStatus;
    source: string;
    createdAt: string;
  }[];
};

const button =
  "rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800";
const input =
  "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white";

const pageHref = (search: string, page: number) => {
  const query = new URLSearchParams();
  if (search) query.set("q", search);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return `/admin/subscribers${text ? `?${text}` : ""}`;
};

/** /admin/subscribers: counts, the searchable paged list, export and the CSV import. */
export function SubscribersAdmin({
  data,
  action,
}: {
  data: SubscribersAdminData;
  action: AdminActionData | undefined;
}) {
  const { counts } = data;
  return (
    <div className="py-12">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{ADMIN_TEXT.title}</h1>
      <p data-testid="subscriber-counts" className="mt-2 text-slate-700 dark:text-slate-300">
        {counts.total} in all: {counts.confirmed} confirmed, {counts.pending} pending,{" "}
        {counts.unsubscribed} unsubscribed.
      </p>
      {action && action.kind !== "preview" ? (
        <p
          role={action.kind === "error" ? "alert" : "status"}
          className={`mt-4 font-medium ${action.kind === "error" ? "text-red-700 dark:text-red-300" : "text-emerald-800 dark:text-emerald-300"}`}
        >
          {action.message}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap items-center gap-3">
        <Form method="get" className="flex gap-2">
          <label className="sr-only" htmlFor="subscriber-search">
            {ADMIN_TEXT.searchLabel}
          </label>
          <input
            id="subscriber-search"
            name="q"
            type="search"
            defaultValue={data.search}
            placeholder={ADMIN_TEXT.searchLabel}
            className={input}
          />
          <button type="submit" className={button}>
            Search
          </button>
        </Form>
        <a href="/admin/subscribers.csv" download className={button}>
          {ADMIN_TEXT.export}
        </a>
      </div>
      <SubscriberList data={data} />
      <ImportForm preview={action?.kind === "preview" ? action.preview : null} />
    </div>
  );
}

function SubscriberList({ data }: { data: SubscribersAdminData }) {
  if (data.subscribers.length === 0) {
    return (
      <p className="mt-6 text-slate-600 dark:text-slate-400">
        {data.search ? ADMIN_TEXT.noMatch : ADMIN_TEXT.empty}
      </p>
    );
  }
  return (
    <>
      <table data-testid="subscribers" className="mt-6 w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th className="py-2">E-mail</th>
            <th>Status</th>
            <th>Source</th>
            <th>Since</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.subscribers.map((s) => (
            <tr key={s.id} className="border-b border-slate-100 dark:border-slate-800">
              <td className="py-2 break-all">{s.email}</td>
              <td>{s.status}</td>
              <td>{s.source}</td>
              <td>
                <time dateTime={s.createdAt}>{s.createdAt.slice(0, 10)}</time>
              </td>
              <td className="text-right">
                <Form method="post">
                  <input type="hidden" name={IMPORT_FIELDS.id} value={s.id} />
                  <button
                    type="submit"
                    name={IMPORT_FIELDS.intent}
                    value={INTENTS.remove}
                    aria-label={`${ADMIN_TEXT.remove} ${s.email}`}
                    className={button}
                  >
                    {ADMIN_TEXT.remove}
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.pageCount > 1 ? (
        <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
          {data.page > 1 ? <Link to={pageHref(data.search, data.page - 1)}>Previous</Link> : null}
          <span>
            Page {data.page} of {data.pageCount}
          </span>
          {data.page < data.pageCount ? (
            <Link to={pageHref(data.search, data.page + 1)}>Next</Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

function ImportForm({ preview }: { preview: ImportPreview | null }) {
  return (
    <section className="mt-10" aria-labelledby="import-heading">
      <h2 id="import-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        {ADMIN_TEXT.importHeading}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{ADMIN_TEXT.importHint}</p>
      <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap gap-3">
        <label className="sr-only" htmlFor="import-file">
          CSV file
        </label>
        <input id="import-file" type="file" name={IMPORT_FIELDS.file} accept=".csv,text/csv" />
        <button
          type="submit"
          name={IMPORT_FIELDS.intent}
          value={INTENTS.preview}
          className={button}
        >
          {ADMIN_TEXT.preview}
        </button>
      </Form>
      {preview ? <ImportPreviewPanel preview={preview} /> : null}
    </section>
  );
}

function ImportPreviewPanel({ preview }: { preview: ImportPreview }) {
  return (
    <div data-testid="import-preview" className="mt-4 space-y-3">
      <p>
        {preview.fresh.length} new, {preview.existing.length} already there,{" "}
        {preview.invalid.length} invalid.
      </p>
      <PreviewList title="New" items={preview.fresh} testId="preview-new" />
      <PreviewList title="Already there" items={preview.existing} testId="preview-existing" />
      <PreviewList
        title="Invalid"
        items={preview.invalid.map((row) => `Row ${row.line}: ${row.text}`)}
        testId="preview-invalid"
      />
      {preview.fresh.length > 0 ? (
        <Form method="post" className="space-y-3">
          <input type="hidden" name={IMPORT_FIELDS.emails} value={preview.fresh.join("\n")} />
          <label className="flex items-start gap-2">
            <input type="checkbox" name={IMPORT_FIELDS.consent} className="mt-1" />
            <span>{ADMIN_TEXT.consent}</span>
          </label>
          <button
            type="submit"
            name={IMPORT_FIELDS.intent}
            value={INTENTS.import}
            className={button}
          >
            {ADMIN_TEXT.importButton} {preview.fresh.length}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function PreviewList({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <details open={items.length <= 20} data-testid={testId}>
      <summary>
        {title} ({items.length})
      </summary>
      <ul className="mt-1 list-inside list-disc text-sm break-all">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </details>
  );
}
