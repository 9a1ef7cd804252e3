import { useEffect, useState } from "react";
import { unstable_useRouterState as useRouterState } from "react-router";

import { policyOf } from "~/route-policy";

/** A navigation shorter than this shows no loading text, so fast pages never flash. */
export const PENDING_TEXT_DELAY_MS = 120;

/**
 * The loading text of the page a client-side navigation is heading to (its `pendingText` in
 * app/route-policy.ts, found by React Router's own match of the target), shown once the
 * navigation has taken PENDING_TEXT_DELAY_MS. Never part of a first paint: documents arrive
 * complete (docs/product.md).
 *
 * `scope` says who renders it: a page whose policy sets `pendingInPage` renders the text of a
 * navigation to itself (the blog list keeps its heading and search), the root layout every other.
 */
export function usePendingText(scope: "root" | "page"): string | null {
  const { active, pending } = useRouterState();
  let text: string | null = null;
  if (pending?.state === "loading") {
    const target = pending.matches.at(-1)?.id;
    const policy = target === undefined ? undefined : policyOf(target);
    const inPage = policy?.pendingInPage === true && active.matches.at(-1)?.id === target;
    if (policy?.pendingText && inPage === (scope === "page")) text = policy.pendingText;
  }

  const key = text === null ? null : `${pending?.location.key ?? ""}:${text}`;
  const [shownKey, setShownKey] = useState<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    const timer = window.setTimeout(() => setShownKey(key), PENDING_TEXT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key]);
  return key !== null && shownKey === key ? text : null;
}
