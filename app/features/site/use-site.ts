import { useRouteLoaderData } from "react-router";

import { siteConfig } from "~/site.config";

import { siteIdentity, type SiteIdentity } from "./site";

/**
 * Shown when the root loader has no data (it failed: the database is down). Built from the
 * configuration, so the header and footer still read sensibly on the error page.
 */
export const FALLBACK_SITE: SiteIdentity = siteIdentity(
  siteConfig,
  { photo: null, cv: null },
  siteConfig,
);

type RootData = { site?: SiteIdentity } | undefined;

/** What every page shows of the owner, from the root loader. */
export function useSite(): SiteIdentity {
  const root = useRouteLoaderData("root") as RootData;
  return root?.site ?? FALLBACK_SITE;
}

/** The same for `meta` functions, from their `matches`. */
export function siteOf(matches: readonly ({ data?: unknown; loaderData?: unknown } | undefined)[]) {
  const root = matches[0] as { loaderData?: RootData } | undefined;
  return root?.loaderData?.site ?? FALLBACK_SITE;
}
