import { useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";

/** A navigation shorter than this shows no loading text, so fast pages never flash. */
export const PENDING_TEXT_DELAY_MS = 120;

const BLOG_LIST = /^\/blog\/?$/;
const POST = /^\/blog\/\d+(\/edit)?\/?$/;

/**
 * The original's loading texts, as pending UI during client-side navigation only
 * (PRODUCT.md, change 1): `Loading posts...` on the way to the list, `Loading...` to a post or its editor.
 * `scope` says who renders it: the blog list renders its own (it keeps its heading and search),
 * the root layout everything else.
 */
export function usePendingText(scope: "root" | "blog-list"): string | null {
  const navigation = useNavigation();
  const location = useLocation();
  const target = navigation.state === "loading" ? navigation.location.pathname : null;

  let text: string | null = null;
  if (target !== null) {
    const listToList = BLOG_LIST.test(location.pathname) && BLOG_LIST.test(target);
    if (scope === "blog-list" && listToList) text = "Loading posts...";
    if (scope === "root" && !listToList) {
      text = BLOG_LIST.test(target) ? "Loading posts..." : POST.test(target) ? "Loading..." : null;
    }
  }

  const key = text === null ? null : `${navigation.location?.key ?? ""}:${text}`;
  const [shownKey, setShownKey] = useState<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    const timer = window.setTimeout(() => setShownKey(key), PENDING_TEXT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key]);
  return key !== null && shownKey === key ? text : null;
}
