/** /admin/social for its route: what the page shows, and what its forms do (POST, then redirect). */
import { data, redirect, type RouterContextProvider } from "react-router";

import {
  isSocialIntent,
  type SocialAdminData,
  SOCIAL_FIELDS,
  SOCIAL_INTENTS,
  SOCIAL_PATH,
  SOCIAL_TEXT,
} from "./admin";
import {
  blockFollower,
  blockResponder,
  decideResponse,
  liftBlock,
  listBlocks,
  listFollowers,
  listPending,
  removeFollower,
} from "./moderation.server";
import { appContext } from "~/context";

const pageOf = (raw: string | null) => {
  const page = Number.parseInt(raw ?? "1", 10);
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
};

export async function socialAdminData(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SocialAdminData> {
  const { db } = context.get(appContext);
  const url = new URL(request.url);
  const done = url.searchParams.get("done");
  const followers = await listFollowers(db, pageOf(url.searchParams.get("page")));
  const pending = await listPending(db);
  const blocks = await listBlocks(db);
  return {
    notice: isSocialIntent(done) ? SOCIAL_TEXT.done[done] : null,
    followers: {
      page: followers.page,
      pageCount: followers.pageCount,
      total: followers.total,
      rows: followers.rows.map((f) => ({
        id: f.id,
        actorUrl: f.actorUrl,
        handle: f.handle,
        name: f.name,
        domain: f.domain,
        createdAt: f.createdAt.toISOString(),
      })),
    },
    pending: pending.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() })),
    blocks: blocks.map((b) => ({
      id: b.id,
      kind: b.kind,
      value: b.value,
      createdAt: b.createdAt.toISOString(),
    })),
  };
}

const fail = (message: string, status: number) => data({ error: message }, { status });

/** Each button's form: one intent, one id; answered with a redirect back to the page. */
export async function socialAdminAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const { db } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return fail("The form could not be read.", 400);
  const intent = form.get(SOCIAL_FIELDS.intent);
  const id = Number(form.get(SOCIAL_FIELDS.id));
  if (!isSocialIntent(intent)) return fail("Unknown action.", 400);
  if (!Number.isSafeInteger(id) || id <= 0) return fail("Nothing to act on.", 400);
  const actions: Record<typeof intent, () => Promise<boolean>> = {
    [SOCIAL_INTENTS.removeFollower]: () => removeFollower(db, id),
    [SOCIAL_INTENTS.blockFollower]: () => blockFollower(db, id, "actor"),
    [SOCIAL_INTENTS.blockFollowerDomain]: () => blockFollower(db, id, "domain"),
    [SOCIAL_INTENTS.approve]: () => decideResponse(db, id, "approved"),
    [SOCIAL_INTENTS.reject]: () => decideResponse(db, id, "rejected"),
    [SOCIAL_INTENTS.blockAuthor]: () => blockResponder(db, id, "actor"),
    [SOCIAL_INTENTS.blockAuthorDomain]: () => blockResponder(db, id, "domain"),
    [SOCIAL_INTENTS.unblock]: () => liftBlock(db, id),
  };
  if (!(await actions[intent]())) return fail("It is gone already.", 404);
  const back = new URLSearchParams({ done: intent });
  const page = pageOf(String(form.get(SOCIAL_FIELDS.page) ?? "1"));
  if (page > 1) back.set("page", String(page));
  return redirect(`${SOCIAL_PATH}?${back}`, 303);
}
