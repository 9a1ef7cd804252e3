/**
 * The owner's fediverse handle (`@{handle}@{host}`): the actor's preferredUsername, what
 * WebFinger answers for `acct:{handle}@{host}`. Mastodon's username rules: letters, digits
 * and underscores; stored lower case.
 */
export const HANDLE_MAX_CHARS = 30;
export const HANDLE_FORMAT = /^[a-z0-9_]+$/;

export const HANDLE_TEXT = {
  label: "Fediverse handle",
  invalid: `A handle is 1 to ${HANDLE_MAX_CHARS} letters, digits or underscores.`,
} as const;

/** A handle as typed (`@Alex`, ` alex_b `), checked: the stored form, or null if it is none. */
export function readHandle(input: string): string | null {
  const handle = input.trim().replace(/^@/, "").toLowerCase();
  if (handle.length === 0 || handle.length > HANDLE_MAX_CHARS) return null;
  return HANDLE_FORMAT.test(handle) ? handle : null;
}

/** The handle a site starts with: the owner's name, its letters and digits only (`alexbyrne`). */
export function defaultHandle(name: string): string {
  const letters = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, HANDLE_MAX_CHARS);
  return letters === "" ? "owner" : letters;
}

/** `@handle@host`, as people type it to follow the site. */
export const fullHandle = (handle: string, siteUrl: string) =>
  `@${handle}@${new URL(siteUrl).host}`;
