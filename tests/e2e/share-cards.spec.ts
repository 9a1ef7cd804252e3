import type { APIRequestContext } from "@playwright/test";

import { expect, test } from "./fixtures";
import { signInRequest } from "./owner";

/**
 * Share cards on the running server: a post saved through the API gets its card from the job
 * queue's worker (woken by the save's own change notice), its page names it, and a new title
 * gives the page a new card. The visitor's requests carry no session.
 */
const CARD = /^http:\/\/127\.0\.0\.1:\d+\/media\/[0-9a-f]{64}\.png$/;

/** The page's share tags, as a link preview reads them. */
async function shareTags(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  const tags: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta [^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags[key] = content;
  }
  return tags;
}

test("a saved post gets its share card, named in its head, and a new one after a title change", async ({
  playwright,
  baseURL,
  request,
}) => {
  const owner = await playwright.request.newContext({ baseURL });
  await signInRequest(owner);
  const title = `Share card ${Date.now()}`;
  const created = await owner.post("/api/posts", {
    data: { title, description: "", content: "<p>Card body.</p>", publish: { mode: "now" } },
  });
  expect(created.status()).toBe(201);
  const { id, slug } = (await created.json()) as { id: number; slug: string };

  // Drawn in the background: the page names it within seconds, never waiting for a poll.
  await expect
    .poll(async () => (await shareTags(request, `/blog/${slug}`))["og:image:alt"], {
      timeout: 15_000,
    })
    .toBe(title);
  const tags = await shareTags(request, `/blog/${slug}`);
  expect(tags["og:image"]).toMatch(CARD);
  expect(tags).toMatchObject({
    "og:image:width": "1200",
    "og:image:height": "630",
    "twitter:card": "summary_large_image",
  });
  const card = await request.get(tags["og:image"]!);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
  expect(card.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect((await card.body()).byteLength).toBeLessThan(150 * 1024);

  const renamed = `${title}, renamed`;
  const updated = await owner.put(`/api/posts/${id}`, {
    data: { title: renamed, description: "", content: "<p>Card body.</p>" },
  });
  expect(updated.status()).toBe(200);
  await expect
    .poll(async () => (await shareTags(request, `/blog/${slug}`))["og:image:alt"], {
      timeout: 15_000,
    })
    .toBe(renamed);
  expect((await shareTags(request, `/blog/${slug}`))["og:image"]).not.toBe(tags["og:image"]);
  await owner.dispose();
});
