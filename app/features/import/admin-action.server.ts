import { data, type RouterContextProvider } from "react-router";

import {
  IMPORT_FIELDS,
  IMPORT_INTENTS,
  IMPORT_LIMITS,
  IMPORT_TEXT,
  type ImportActionData,
  type ImportState,
} from "./admin";
import { confirmImport, latestImport, planUpload } from "./jobs.server";
import { planLines } from "./report";
import { appContext } from "~/context";
import { readPostedForm } from "~/lib/posted-form.server";

const fail = (message: string, status = 400) =>
  data<ImportActionData>({ kind: "error", message }, { status });

/** The page's data: the newest import's progress or summary. */
export async function importAdminData(context: Readonly<RouterContextProvider>): Promise<{
  latest: ImportState;
}> {
  const { db } = context.get(appContext);
  const latest = await latestImport(db);
  return { latest: latest ? { ...latest, result: latest.result ?? null } : null };
}

/** The page's forms: a dry run of an uploaded export, then `Import` of that dry run. */
export async function importAdminAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const { db } = context.get(appContext);
  // An export of many megabytes is read as it arrives, never joined whole (readPostedForm).
  const posted = await readPostedForm(request, {
    [IMPORT_FIELDS.file]: IMPORT_LIMITS.bytes,
  }).catch(() => null);
  if (!posted) return fail("The form could not be read.");
  const form = posted.fields;
  const intent = form.get(IMPORT_FIELDS.intent);
  if (intent === IMPORT_INTENTS.preview) {
    const file = posted.files.get(IMPORT_FIELDS.file);
    if (!file) return fail(IMPORT_TEXT.noFile);
    if (file.bytes.byteLength > IMPORT_LIMITS.bytes) return fail(IMPORT_TEXT.tooLarge, 413);
    try {
      const { id, plan } = await planUpload(db, file.name, file.bytes);
      return data<ImportActionData>({
        kind: "plan",
        id,
        lines: planLines(plan),
        posts: plan.counts.posts,
      });
    } catch (error) {
      return fail((error as Error).message);
    }
  }
  if (intent === IMPORT_INTENTS.import) {
    const id = Number(form.get(IMPORT_FIELDS.id));
    if (!Number.isSafeInteger(id) || !(await confirmImport(db, id)))
      return fail(IMPORT_TEXT.gone, 409);
    return data<ImportActionData>({ kind: "queued", message: IMPORT_TEXT.queued });
  }
  return fail("Unknown action.");
}
