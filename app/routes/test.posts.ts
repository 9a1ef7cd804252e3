import { appContext } from "~/context";
import {
  allPostsRaw,
  mediaCount,
  storeRawPosts,
  testPostsSchema,
} from "~/routes/test-routes.server";

import type { Route } from "./+types/test.posts";

/** POST JSON `{ reset?, posts: [...] }`: stores posts raw and answers their ids (tests only). */
export async function action({ context, request }: Route.ActionArgs) {
  const parsed = testPostsSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
  const ids = await storeRawPosts(context.get(appContext).db, parsed.data);
  return Response.json({ ids });
}

/**
 * GET: every stored post as it is in the table, and how many post images are stored, so tests
 * can check what a request changed.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  return Response.json({ posts: await allPostsRaw(db), images: await mediaCount(db, "image") });
}
