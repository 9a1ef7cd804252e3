/**
 * The names of what a cached public page shows. A page carries the tags of what it shows
 * (app/route-policy.ts `tags`); a change drops every page carrying its tag. The database's
 * triggers name the same things in their change notices (database/migrations, from 0004), so a
 * name missing here is a page never dropped, or a notice never understood: one list for both.
 */
/** The tags the database's change notices name. */
export const NOTICE_TAGS = [
  // What every page shows of the owner: name, title, location, e-mail, photo.
  "site",
  // The rest of the profile (the home page and /resume.json).
  "profile",
  "experience",
  "education",
  // Lists of posts: the blog, tags, feeds, the sitemap.
  "posts",
] as const;

export type NoticeTag = (typeof NOTICE_TAGS)[number];

export const CACHE_TAGS = [
  ...NOTICE_TAGS,
  // Each post's own page; it shows other posts too (related posts), so any post's change drops
  // them all. No notice names it: the server adds it to every notice about posts.
  "post-pages",
] as const;

export type CacheTag = (typeof CACHE_TAGS)[number];

/** A notice naming the posts that changed (migration 0004): `posts:1,2,3`. */
const POSTS_BY_ID = /^posts:\d+(?:,\d+)*$/;

/** The tag a change notice's payload names; null for a payload that names none of them. */
export function noticeTagOf(payload: string): NoticeTag | null {
  if (POSTS_BY_ID.test(payload)) return "posts";
  return NOTICE_TAGS.find((tag) => tag === payload) ?? null;
}
