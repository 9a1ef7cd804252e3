import { data } from "react-router";

import { appContext } from "~/context";
import { readPostWrite, createPost, SlugTakenError } from "~/features/posts/index.server";
import { PUBLISH_TEXT } from "~/features/posts";

import type { Route } from "./+types/api.posts";

/**
 * POST /api/posts: create a post (owner only), a draft, published or scheduled. Answers 201
 * with the new id and slug; 409 when the slug asked for is another post's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  const write = await readPostWrite(request);
  if (!write.ok) return data({ ok: false, error: write.error }, { status: write.status });
  const { publish, ...post } = write.value;
  try {
    const created = await createPost(context.get(appContext).db, {
      ...post,
      publish: publish ?? { mode: "now" },
    });
    return data({ ok: true, ...created }, { status: 201 });
  } catch (error) {
    if (error instanceof SlugTakenError) {
      return data({ ok: false, error: PUBLISH_TEXT.slugTaken }, { status: 409 });
    }
    throw error;
  }
}
