export { BackToTop } from "./back-to-top";
export { attachContentActions } from "./content-actions";
export { Footer } from "./footer";
export { Header, useIsOwner } from "./header";
export { HydrationScripts } from "./hydration-scripts";
export { type PendingPolicy, PendingPolicyContext, usePendingText } from "./pending";
export { absoluteUrl, excerpt, pageMeta } from "./seo";
export { SiteScriptContext } from "./site-script-context";
export { INLINE_SCRIPTS, SITE_SCRIPT } from "./site-script";
export {
  DEFAULT_PHOTO_URL,
  type HomeProfile,
  NEW_TAB_SOCIALS,
  PHOTO_SIZE,
  type SiteConfig,
  siteCvUrl,
  siteIdentity,
  sitePhoto,
} from "./site";
export { themeInitScript } from "./theme";
export { siteOf, useSite } from "./use-site";
