/** The owner's subscriber page, for its route: what it shows, and what its forms do. */
import { data, type RouterContextProvider } from "react-router";

import {
  ADMIN_TEXT,
  IMPORT_FIELDS,
  IMPORT_LIMITS,
  importedText,
  INTENTS,
  type AdminActionData,
} from "./admin";
import {
  importSubscribers,
  listSubscribers,
  previewImport,
  removeSubscriber,
  subscriberCounts,
} from "./admin.server";
import { appContext } from "~/context";
import { readPostedForm } from "~/lib/posted-form.server";

const MAX_SEARCH = 200;

/** The page's data: counts, and one page of the list for the search in the URL. */
export async function subscriberAdminData(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const { db } = context.get(appContext);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_SEARCH);
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  const list = await listSubscribers(db, search, Number.isSafeInteger(page) ? page : 1);
  return {
    counts: await subscriberCounts(db),
    search,
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    subscribers: list.rows.map((s) => ({
      id: s.id,
      email: s.email,
      status: s.status,
      source: s.source,
      createdAt: s.createdAt.toISOString(),
    })),
  };
}

const fail = (message: string, status = 400) =>
  data<AdminActionData>({ kind: "error", message }, { status });

/** The page's forms: remove an address, preview a CSV file, import the previewed addresses. */
export async function subscriberAdminAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const { db } = context.get(appContext);
  // Its file read as it arrives, like every upload (readPostedForm).
  const posted = await readPostedForm(request, {
    [IMPORT_FIELDS.file]: IMPORT_LIMITS.bytes,
  }).catch(() => null);
  if (!posted) return fail("The form could not be read.");
  const form = posted.fields;
  const intent = form.get(IMPORT_FIELDS.intent);
  if (intent === INTENTS.remove) {
    const id = Number(form.get(IMPORT_FIELDS.id));
    if (!Number.isSafeInteger(id) || !(await removeSubscriber(db, id))) {
      return fail("No such subscriber.", 404);
    }
    return data<AdminActionData>({ kind: "done", message: "Removed." });
  }
  if (intent === INTENTS.preview) {
    const bytes = posted.files.get(IMPORT_FIELDS.file)?.bytes;
    if (!bytes) return fail(ADMIN_TEXT.noFile);
    if (bytes.byteLength > IMPORT_LIMITS.bytes) return fail(ADMIN_TEXT.tooLarge, 413);
    const preview = await previewImport(db, new TextDecoder().decode(bytes));
    if (!preview) return fail(ADMIN_TEXT.tooMany, 413);
    return data<AdminActionData>({ kind: "preview", preview });
  }
  if (intent === INTENTS.import) {
    const raw = form.get(IMPORT_FIELDS.emails);
    const emails = typeof raw === "string" ? raw.split("\n").filter((e) => e.trim() !== "") : [];
    if (emails.length > IMPORT_LIMITS.rows) return fail(ADMIN_TEXT.tooMany, 413);
    const consented = form.get(IMPORT_FIELDS.consent) === "on";
    const added = await importSubscribers(db, emails, consented);
    if (added === 0) return fail(ADMIN_TEXT.nothingNew);
    return data<AdminActionData>({ kind: "done", message: importedText(added, consented) });
  }
  return fail("Unknown action.");
}
