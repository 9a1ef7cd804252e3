import { appContext } from "~/context";

import type { Route } from "./+types/robots";

/** Public pages are open to crawlers; the owner's pages are not. */
export function loader({ context }: Route.LoaderArgs) {
  const base = context.get(appContext).env.siteUrl;
  const lines = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /blog/new",
    "Disallow: /blog/*/edit",
    "Disallow: /login",
    "Disallow: /admin",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ];
  return new Response(lines.join("\n"), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
    },
  });
}
