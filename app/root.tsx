import { use, type ReactNode } from "react";
import {
  data,
  Link,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteLoaderData,
  useRouteError,
} from "react-router";

import type { Route } from "./+types/root";
import "./app.css";
import { appContext } from "./context";
import { isOwner } from "./features/owner/index.server";
import {
  BackToTop,
  Footer,
  Header,
  HydrationScripts,
  SiteScriptContext,
  PendingPolicyContext,
  usePendingText,
  themeInitScript,
  siteOf,
  useSite,
} from "./features/site";
import { feedAlternates } from "./features/posts";
import { webmentionEndpoint } from "./features/social";
import { NonceContext } from "./lib/nonce";
import { PENDING_TEXTS } from "./route-policy";
import { RoutePolicyContext } from "./route-policy-context";
import { readSiteIdentity } from "./features/site/index.server";
import { buttonClass } from "~/ui/button";

/**
 * Whether this document loads React (app/route-policy.ts `hydrate`): not for content pages, nor
 * for an error page. Decided on the server; in the browser the page has hydrated already (or a
 * client-side navigation from one that had is rendering it).
 */
function useHydrates(): boolean {
  const matches = useMatches();
  const error = useRouteError();
  const policyOf = use(RoutePolicyContext);
  if (typeof document !== "undefined") return true;
  if (error !== undefined && error !== null) return false;
  const leaf = matches.at(-1);
  return leaf === undefined || policyOf(leaf.id)?.hydrate !== false;
}

export function Layout({ children }: { children: ReactNode }) {
  // Only the server knows it; browsers hide nonces from the DOM, and hydration keeps the attribute.
  const nonce = use(NonceContext);
  const siteScript = use(SiteScriptContext);
  const hydrates = useHydrates();
  const site = useSite();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const pendingTexts = rootData?.pendingTexts;
  return (
    // The theme script changes <html>'s class before hydration, on purpose.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeInitScript }} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {rootData ? <link rel="webmention" href={rootData.webmention} /> : null}
        {feedAlternates(site.name).map((link) => (
          <link key={link.href} {...link} />
        ))}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <a
          href="#main"
          className="sr-only z-50 rounded bg-white px-4 py-2 text-slate-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <Header />
        <main id="main" className="mx-auto min-h-[70vh] max-w-6xl px-4 pt-16">
          <PendingPolicyContext value={(id) => pendingTexts?.[id]}>{children}</PendingPolicyContext>
        </main>
        <Footer />
        <BackToTop />
        {hydrates ? (
          <>
            <ScrollRestoration />
            <HydrationScripts />
          </>
        ) : (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: siteScript }} />
        )}
      </body>
    </html>
  );
}

/**
 * While the database is unreachable (server/health.ts), every request is answered 503 with the
 * error page at once, before any loader or action waits on it.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    if (context.get(appContext).databaseUnavailable) {
      throw data(null, { status: 503, statusText: "Service Unavailable" });
    }
  },
];

/**
 * Only what every page needs and the browser may see: the public base URL, what every page
 * shows of the owner (header, footer, titles, share cards), and whether the owner is signed in.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { env, db, degraded } = context.get(appContext);
  const [site, owner] = await Promise.all([
    readSiteIdentity(db, degraded),
    isOwner(request, context),
  ]);
  return {
    siteUrl: env.siteUrl,
    // The Webmention endpoint every page names (with the Link header: app/entry.server.tsx).
    webmention: webmentionEndpoint(env.siteUrl),
    site,
    isOwner: owner,
    pendingTexts: PENDING_TEXTS,
  };
}

export default function App() {
  const pending = usePendingText("root");
  if (pending) {
    return (
      <p className="py-12 text-slate-600 dark:text-slate-400" aria-live="polite">
        {pending}
      </p>
    );
  }
  return <Outlet />;
}

/** Status and text of what the error page shows: a route's 404, or 500 for anything else. */
function describeError(error: unknown) {
  if (isRouteErrorResponse(error)) {
    return {
      status: error.status,
      statusText: error.statusText || (error.status === 404 ? "Not Found" : "Error"),
    };
  }
  return { status: 500, statusText: "Internal Server Error" };
}

export function meta({ error, matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  if (error) {
    const { status, statusText } = describeError(error);
    return [
      { title: `${status} ${statusText} · ${site.name}` },
      { name: "robots", content: "noindex" },
    ];
  }
  return [{ title: site.name }, { name: "description", content: site.description }];
}

/** The router's error page (docs/product.md#not-found-pages): status and text, a link home, no stack in production. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { status, statusText } = describeError(error);
  let detail =
    status === 404
      ? "The page you are looking for does not exist."
      : "Something went wrong on our side. Please try again in a moment.";
  let stack: string | undefined;
  if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
    stack = error.stack;
  }

  return (
    <div className="py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">
        Unexpected Application Error!
      </h1>
      <p className="mt-4 text-xl text-slate-700 dark:text-slate-300">
        {status} {statusText}
      </p>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{detail}</p>
      {stack ? <pre className="mt-6 overflow-x-auto text-left text-xs">{stack}</pre> : null}
      <Link to="/" className={buttonClass({ size: "lg", className: "mt-8" })}>
        Go back home
      </Link>
    </div>
  );
}
