import { createContext, use, useEffect, useState } from "react";
import { unstable_useRouterState as useRouterState } from "react-router";

/**
 * What the route policy (app/route-policy.ts) says a route shows while a navigation to it loads,
 * by route id. The root layout provides it: a feature reads nothing above it, so the policy is
 * handed down rather than imported.
 */
export type PendingPolicy = (
  routeId: string,
) => { pendingText?: string; pendingInPage?: boolean } | undefined;
export const PendingPolicyContext = createContext<PendingPolicy>(() => undefined);

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
  const policyOf = use(PendingPolicyContext);
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
