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
