import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { MEDIA_DELETED_CHANNEL } from "../../app/features/media/index.server";
import { CACHE_TAGS } from "../../app/lib/cache-tags";
import { isBarrier, PAGE_CACHE_CHANNEL, tagsOfChange } from "./link";

const MIGRATIONS = path.resolve(import.meta.dirname, "../../database/migrations");

type Notice = { file: string; channel: string; payload: string };

/**
 * Every `pg_notify(channel, payload)` of the migrations, its payload as a sample value: a
 * literal as it is, `'posts:' || array_to_string(ids, ',')` as `posts:1,2`. A payload written
 * any other way is returned as it is written, which no tag reads.
 */
function noticesOf(file: string, sql: string): Notice[] {
  const calls = [...sql.matchAll(/pg_notify\(\s*'([^']*)'\s*,\s*(.+?)\)\s*;/gs)];
  // A call this pattern misses would go unchecked.
  expect(calls.length, `pg_notify calls read in ${file}`).toBe(sql.split("pg_notify(").length - 1);
  return calls.map(([, channel = "", expression = ""]) => {
    const literal = /^'([^']*)'$/.exec(expression.trim());
    const withIds = /^'([^']*)'\s*\|\|\s*array_to_string\(\s*\w+\s*,\s*','\s*\)$/.exec(
      expression.trim(),
    );
    const payload = literal ? literal[1]! : withIds ? `${withIds[1]}1,2` : expression;
    return { file, channel, payload };
  });
}

const allNotices = readdirSync(MIGRATIONS)
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .flatMap((name) => noticesOf(name, readFileSync(path.join(MIGRATIONS, name), "utf8")));
/** Channels of their own, not the page cache's: a deleted upload's hash. */
const OTHER_CHANNELS = [MEDIA_DELETED_CHANNEL];
const notices = allNotices.filter((notice) => notice.channel === PAGE_CACHE_CHANNEL);

describe("tagsOfChange", () => {
  it("reads the payloads of migrations 0004 and 0005", () => {
    expect(tagsOfChange("site")).toEqual(["site"]);
    expect(tagsOfChange("profile")).toEqual(["profile"]);
    expect(tagsOfChange("experience")).toEqual(["experience"]);
    expect(tagsOfChange("education")).toEqual(["education"]);
    expect(tagsOfChange("posts")).toEqual(["posts", "post-pages"]);
    // A post page shows others (related posts, their titles and tags): one post's change drops
    // them all.
    expect(tagsOfChange("posts:3,14")).toEqual(["posts", "post-pages"]);
    expect(tagsOfChange("something new")).toBe("all");
  });

  it("reads no tag into what is not a whole notice", () => {
    // post-pages is the server's own: added to every notice about posts, never one by itself.
    for (const payload of [
      "",
      "post",
      "posts:",
      "posts:1,",
      "posts:x",
      "site ",
      "Site",
      "post-pages",
    ]) {
      expect(tagsOfChange(payload), payload).toBe("all");
    }
  });

  it("tells its own barriers from changes", () => {
    expect(isBarrier("barrier:0b5c")).toBe(true);
    expect(isBarrier("posts")).toBe(false);
  });
});

describe("the migrations' change notices", () => {
  it("are found, each on the page cache's channel or a known one of its own", () => {
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of allNotices) {
      expect([PAGE_CACHE_CHANNEL, ...OTHER_CHANNELS], notice.file).toContain(notice.channel);
    }
  });

  it.each(notices.map((notice) => [notice.file, notice.payload, notice] as const))(
    "%s: %s names a cache tag",
    (_file, payload, notice) => {
      expect(notice.channel).toBe(PAGE_CACHE_CHANNEL);
      // "all" is the answer to a payload not understood: every page dropped on every change.
      expect(tagsOfChange(payload)).not.toBe("all");
    },
  );

  it("together drop every tag a page can carry", () => {
    const dropped = new Set(notices.flatMap((notice) => tagsOfChange(notice.payload)));
    expect([...dropped].sort()).toEqual([...CACHE_TAGS].sort());
  });
});
