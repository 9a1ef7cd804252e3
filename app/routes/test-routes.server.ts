// The data behind the test-only routes, which only a TEST_ROUTES=1 build has (app/routes.ts).
import { count, eq } from "drizzle-orm";
import { z } from "zod";

import type { Database } from "../../database/db.server";
import { blogPosts, contactMessages, media } from "../../database/schema";

export const testPostsSchema = z.object({
  /** Delete every post first. */
  reset: z.boolean().default(false),
  posts: z
    .array(
      z.object({
        title: z.string().min(1),
        description: z.string().nullable().default(null),
        content: z.string(),
        contentEn: z.string().nullable().default(null),
        createdAt: z.iso.datetime().optional(),
      }),
    )
    .max(1000),
});

/**
 * Stores posts exactly as given, without the sanitizer, so end-to-end tests can prove that
 * rendering is safe whatever reached the table (tests/e2e/xss.spec.ts stores every XSS vector
 * straight in).
 */
export async function storeRawPosts(db: Database, input: z.infer<typeof testPostsSchema>) {
  return db.transaction(async (tx) => {
    if (input.reset) await tx.delete(blogPosts);
    if (input.posts.length === 0) return [];
    const rows = await tx
      .insert(blogPosts)
      .values(
        input.posts.map((p) => ({
          title: p.title,
          description: p.description,
          content: p.content,
          contentEn: p.contentEn,
          ...(p.createdAt
            ? { createdAt: new Date(p.createdAt), updatedAt: new Date(p.createdAt) }
            : {}),
        })),
      )
      .returning({ id: blogPosts.id });
    return rows.map((r) => r.id);
  });
}

export function allPostsRaw(db: Database) {
  return db.select().from(blogPosts).orderBy(blogPosts.id);
}

/** How many uploaded files of a purpose are stored (tests check that a refusal stores none). */
export async function mediaCount(db: Database, purpose: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(media).where(eq(media.purpose, purpose));
  return row?.n ?? 0;
}

export async function resetContactMessages(db: Database) {
  await db.delete(contactMessages);
}

export function allContactMessages(db: Database) {
  return db.select().from(contactMessages).orderBy(contactMessages.id);
}

export async function markMessageFailedForTests(db: Database, id: number) {
  await db
    .update(contactMessages)
    .set({ status: "failed", attempts: 10, lastError: "gave up (set by a test)" })
    .where(eq(contactMessages.id, id));
}
