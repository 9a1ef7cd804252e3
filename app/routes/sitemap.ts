import { appContext } from "~/context";
import { escapeXml } from "~/lib/xml";
import { postPath, tagPath } from "~/features/posts";
import { allPostDates, listTags } from "~/features/posts/index.server";

import type { Route } from "./+types/sitemap";

/**
 * Home, blog, every published post with its last change and every tag, streamed: posts are read in batches while
 * the response is written, so 100,000 posts never sit in memory at once.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(appContext);
  const base = env.siteUrl;
  const encoder = new TextEncoder();
  const url = (loc: string, lastmod?: Date) =>
    `  <url><loc>${escapeXml(`${base}${loc}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ""}</url>\n`;

  let posts: AsyncGenerator<{ slug: string; updatedAt: Date }> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
            url("/") +
            url("/blog") +
            url("/blog/tags"),
        ),
      );
      posts = allPostDates(db);
    },
    async pull(controller) {
      let chunk = "";
      // About one batch of posts per pull, so memory stays flat however many there are.
      for (let i = 0; i < 1000; i++) {
        const next = await posts!.next();
        if (next.done) {
          // Then the tags' pages (a few hundred at most: five per post, shared).
          for (const { tag } of await listTags(db)) chunk += url(tagPath(tag));
          controller.enqueue(encoder.encode(`${chunk}</urlset>\n`));
          controller.close();
          return;
        }
        chunk += url(postPath(next.value.slug), next.value.updatedAt);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await posts?.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
    },
  });
}
