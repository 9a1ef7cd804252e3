/**
 * Slugs: the ASCII, lower-case, hyphenated form of a text, with accents folded ("Migración
 * rápida" → "migracion-rapida"). Used for heading anchors in posts; plain TypeScript.
 */

/** Letters with no decomposition that NFKD would fold, written as their usual ASCII. */
const SPECIAL: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ł: "l",
  þ: "th",
  ð: "d",
};

/** The slug of a text, or "" when it holds no letter or digit. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđłþð]/g, (c) => SPECIAL[c] ?? c)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * What a slug or a tag looks like once made (the database checks the same: migration 0007's
 * blog_posts_slug_format and post_tags_tag_format).
 */
export const SLUG_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest post slug; a longer title's slug is cut at a hyphen. */
export const SLUG_MAX_LENGTH = 80;
/** Words the blog's own URLs use after /blog/, which no post may take. */
export const RESERVED_SLUGS: readonly string[] = ["new", "tags"];

/**
 * The slug a title (or a slug the owner typed) gives a post: `slugify`, at most
 * SLUG_MAX_LENGTH characters cut at a hyphen, never only digits (`/blog/{id}` is the old URL of
 * post {id}) nor a reserved word. The database makes the same from a title when a post is stored
 * without one (blog_slug_of, migration 0007); a test holds the two equal.
 */
export function postSlugOf(text: string): string {
  let slug = slugify(text);
  if (slug.length > SLUG_MAX_LENGTH) {
    const cut = slug.slice(0, SLUG_MAX_LENGTH + 1);
    slug = (cut.includes("-") ? cut.replace(/-[^-]*$/, "") : cut.slice(0, SLUG_MAX_LENGTH)).replace(
      /^-+|-+$/g,
      "",
    );
  }
  if (slug === "") return "post";
  if (/^\d+$/.test(slug)) return `post-${slug}`;
  if (RESERVED_SLUGS.includes(slug)) return `${slug}-post`;
  return slug;
}
