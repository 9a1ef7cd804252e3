import { count, eq } from "drizzle-orm";

import type { DemoContent } from "../content/demo";
import type { Database } from "./db.server";
import { appMeta, blogPosts, education, jobExperiences, jobs } from "./schema";

const SEEDED_KEY = "demo_content_seeded";

export type SeedResult = "seeded" | "already-seeded" | "not-empty";

/**
 * Seeds the demo content into an empty database, once. A marker row makes a second run a
 * no-op, even after the owner has deleted every demo post; a database that already holds
 * content is never touched.
 */
export async function seedDemoContent(db: Database, content: DemoContent): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const marker = await tx.select().from(appMeta).where(eq(appMeta.key, SEEDED_KEY));
    if (marker.length > 0) return "already-seeded";

    const [posts, experiences, educationEntries] = await Promise.all([
      tx.select({ n: count() }).from(blogPosts),
      tx.select({ n: count() }).from(jobExperiences),
      tx.select({ n: count() }).from(education),
    ]);
    if ((posts[0]?.n ?? 0) + (experiences[0]?.n ?? 0) + (educationEntries[0]?.n ?? 0) > 0)
      return "not-empty";

    // The demo entries are written as the tables store them, in the order they are listed.
    await tx
      .insert(jobExperiences)
      .values(content.experiences.map((e, sortKey) => ({ ...e, sortKey })));
    await tx.insert(education).values(content.education.map((e, sortKey) => ({ ...e, sortKey })));
    await tx.insert(blogPosts).values(
      content.posts.map((p) => ({
        title: p.title,
        description: p.description,
        content: p.content,
        createdAt: new Date(p.createdAt),
        updatedAt: new Date(p.createdAt),
      })),
    );
    // The demo's posts link to real sites, which a new install does not tell about them: the
    // Webmentions their insertion queued (migration 0020) go with the seed's transaction.
    await tx.delete(jobs).where(eq(jobs.kind, "social.webmention-send"));
    await tx.insert(appMeta).values({ key: SEEDED_KEY, value: new Date().toISOString() });
    return "seeded";
  });
}
