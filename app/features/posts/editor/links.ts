/** The Link button's rules: which addresses a link may have, and what the owner is told. */

const ALLOWED = /^(?:https?:\/\/[^\s/]+\S*|mailto:[^\s@]+@[^\s@]+)$/i;

export const LINK_TEXT = {
  invalid: "A link must be a web address (http:// or https://) or an e-mail address (mailto:).",
  empty: "Enter the link's address.",
} as const;

/** The address to store, or the reason it is refused. A bare domain gets https://. */
export function checkLink(raw: string): { ok: true; href: string } | { ok: false; error: string } {
  const value = raw.trim();
  if (value === "") return { ok: false, error: LINK_TEXT.empty };
  const href = /^[a-z][a-z0-9+.-]*:/i.test(value)
    ? value
    : /^[^\s/@]+\.[^\s/@]+/.test(value)
      ? `https://${value}`
      : value;
  if (!ALLOWED.test(href) || /[\p{Cc}\p{Cf}]/u.test(href)) {
    return { ok: false, error: LINK_TEXT.invalid };
  }
  try {
    new URL(href);
  } catch {
    return { ok: false, error: LINK_TEXT.invalid };
  }
  return { ok: true, href };
}
