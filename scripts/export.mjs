// npm run export -- FILE: writes every post (drafts too) as Markdown with front matter and its
// images beside it, in one zip (app/features/posts/export.server.ts), from the database the
// server uses (DATABASE_URL or DATA_DIR). On the embedded database, stop the server first;
// PostgreSQL can be exported live. The Markdown import (npm run import) reads it back.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";

import { site, withSiteDatabase } from "./site-database.mjs";

const file = path.resolve(process.argv[2] ?? `posts-${new Date().toISOString().slice(0, 10)}.zip`);
await withSiteDatabase(async (database) => {
  const out = createWriteStream(file, { mode: 0o600 });
  const counts = await site.exportPosts(database.db, async (chunk) => {
    if (!out.write(chunk)) await once(out, "drain");
  });
  out.end();
  await once(out, "finish");
  console.log(`Exported ${counts.posts} posts and ${counts.images} images to ${file}.`);
});
