// A writer on a disk that fills up (./disk-full.test.ts runs it in a process of its own, so a
// database that stops answering fails that test instead of hanging the run). Opens the built
// bundle's embedded database in DATA_DIR (a small tmpfs), fills the disk until LEFT_BYTES are
// free, then writes as the site does, and prints one JSON line: what each write gave, and
// whether the database still answers.
//
//   node disk-full-writer.mjs DATA_DIR LEFT_BYTES SCENARIO
//   SCENARIO: "file"  one 10 MB upload's parts (storeMedia), then small writes
//             "small" 1,000 small writes (a row each) on a disk with no room left
import { randomBytes } from "node:crypto";
import { globSync, statfsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { sql } from "drizzle-orm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [dataDir, leftArg, scenario] = process.argv.slice(2);
const { openDatabase, storeMedia } = await import(path.join(root, "build/server/index.js"));

const free = () => {
  const stats = statfsSync(dataDir);
  return stats.bavail * stats.bsize;
};
const [template] = globSync(path.join(root, "build/pglite-template-*.tar.gz"));
const database = await openDatabase({ dataDir: path.join(dataDir, "db"), template });
await database.migrate(path.join(root, "database/migrations"));
await database.db.execute(sql`create table filler_rows (id serial primary key, b bytea)`);
writeFileSync(path.join(dataDir, "filler"), Buffer.alloc(Math.max(0, free() - Number(leftArg))));

const outcomes = {};
const count = (key) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
const codeOf = (error) => {
  const cause = error?.cause ?? error;
  return `${cause?.code ?? "no code"} ${cause?.severity ?? ""}`.trim();
};

if (scenario === "file") {
  try {
    const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(10 * 1000 ** 2)]);
    await storeMedia(database.db, "cv", [
      { contentType: "application/pdf", bytes, width: null, height: null },
    ]);
    count("file stored");
  } catch (error) {
    count(`file: ${codeOf(error)}`);
  }
}
const writes = scenario === "file" ? 200 : 1000;
for (let i = 0; i < writes; i++) {
  try {
    await database.db.execute(
      sql`insert into filler_rows (b) values (${randomBytes(i % 10 === 0 ? 65536 : 2000)})`,
    );
    count("row stored");
  } catch (error) {
    count(`row: ${codeOf(error)}`);
  }
}
let answers = false;
try {
  await database.ping(5000);
  answers = true;
} catch {
  // It did not answer: the report says so.
}
console.log(JSON.stringify({ outcomes, answers, freeBytes: free() }));
process.exit(0);
