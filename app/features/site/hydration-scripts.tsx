import { use, useState } from "react";
import {
  Scripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_FrameworkContext as FrameworkContext,
  useMatches,
  type UNSAFE_AssetsManifest as AssetsManifest,
} from "react-router";

/**
 * React Router's `<Scripts>`, loaded after the page's first paint instead of with it
 * (docs/decisions/020-hydration-after-the-first-paint.md).
 *
 * `<Scripts>` puts a `modulepreload` link for every chunk in the document and imports them
 * statically from an inline module, so a phone fetches ~140 KB of JavaScript alongside the
 * stylesheet before it can paint. Here the document carries no link: the inline module waits for
 * the first frame to be painted, then adds the same links (with the page's nonce, all at once,
 * so there is no waterfall) and imports the same modules in the same order. What it hands to
 * React Router's browser entry is unchanged: `window.__reactRouterContext` (written, as by
 * `<Scripts>`, by a classic script, so the streamed loader data can be queued before the
 * modules run), `window.__reactRouterRouteModules`, then the entry itself.
 *
 * Production builds only: in development `<Scripts>` also brings Vite's hot reloading.
 */
export function HydrationScripts() {
  if (import.meta.env.DEV) return <Scripts />;
  return <DeferredScripts />;
}

function DeferredScripts() {
  const framework = use(FrameworkContext);
  const dataRouter = use(DataRouterContext);
  const matches = useMatches();
  if (framework === undefined || dataRouter === null) {
    throw new Error("HydrationScripts must be rendered inside React Router's framework mode");
  }
  markScriptsRendered(framework);
  // Rendered once, like `<Scripts>`: the browser keeps the server's text (a client render of an
  // inline script runs nothing), and later navigations must not change it.
  const [sources] = useState(() => {
    if (!dataRouter.static) return { context: " ", loader: " " };
    const { manifest, routeDiscovery, ssr, serverHandoffString } = framework;
    if (routeDiscovery.mode === "lazy" && ssr) {
      throw new Error("HydrationScripts loads every route up front (routeDiscovery: initial)");
    }
    if (typeof manifest.sri === "object") {
      throw new Error("HydrationScripts does not add subresource integrity");
    }
    return {
      context: dataRouter.staticContext
        ? `window.__reactRouterContext = ${serverHandoffString};window.__reactRouterContext.stream = new ReadableStream({start(controller){window.__reactRouterContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());`
        : " ",
      loader: loaderSource(
        manifest,
        matches.map((match) => match.id),
      ),
    };
  });
  const nonce = framework.nonce;
  return (
    <>
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: sources.context }}
      />
      <script
        nonce={nonce}
        type="module"
        async
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: sources.loader }}
      />
    </>
  );
}

/**
 * React Router streams the loader data into the document only when the scripts that read it are
 * rendered: `<Scripts>` says so on the render's own record, and so does this.
 */
function markScriptsRendered(framework: { renderMeta?: { didRenderScripts?: boolean } }) {
  if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;
}

/**
 * The longest a page waits for its first paint before it fetches its framework anyway: a page
 * that paints nothing contentful, or a browser that reports no paint, still hydrates.
 */
export const PAINT_WAIT_LIMIT_MS = 3000;

/** The chunks of a route that `<Scripts>` imports, in its order. */
function routeChunks(manifest: AssetsManifest, routeId: string): string[] {
  const route = manifest.routes[routeId];
  if (route === undefined) throw new Error(`Route ${routeId} is not in the client manifest`);
  return [
    route.clientActionModule,
    route.clientLoaderModule,
    route.clientMiddlewareModule,
    route.hydrateFallbackModule,
    route.module,
  ].filter((chunk): chunk is string => typeof chunk === "string");
}

/**
 * The inline module: first paint, then preload links, then the imports `<Scripts>` would make
 * statically (the manifest, each matched route's chunks merged into one module object), then the
 * entry. Exported for its unit test.
 */
export function loaderSource(manifest: AssetsManifest, routeIds: readonly string[]): string {
  const routes = routeIds.map((id) => ({ id, chunks: routeChunks(manifest, id) }));
  const preloads = [
    ...new Set([
      manifest.url,
      manifest.entry.module,
      ...manifest.entry.imports,
      ...routes.flatMap(({ id, chunks }) => [...chunks, ...(manifest.routes[id]?.imports ?? [])]),
    ]),
  ];
  const json = (value: unknown) => JSON.stringify(value);
  return [
    // The paint timing entry arrives once the first contentful frame is on screen; a browser
    // without it waits for the next frame instead (requestAnimationFrame runs just before it).
    // Should neither come, the page still hydrates after PAINT_WAIT_LIMIT_MS.
    "await new Promise((painted) => {",
    `  setTimeout(painted, ${PAINT_WAIT_LIMIT_MS});`,
    '  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {',
    "    requestAnimationFrame(() => setTimeout(painted, 0));",
    "    return;",
    "  }",
    "  new PerformanceObserver((list, observer) => {",
    '    if (!list.getEntriesByName("first-contentful-paint").length) return;',
    "    observer.disconnect();",
    "    setTimeout(painted, 0);",
    '  }).observe({ type: "paint", buffered: true });',
    "});",
    'const nonce = document.querySelector("script[nonce]")?.nonce;',
    `for (const href of ${json(preloads)}) {`,
    '  const link = document.createElement("link");',
    '  link.rel = "modulepreload";',
    "  link.href = href;",
    "  if (nonce) link.nonce = nonce;",
    "  document.head.append(link);",
    "}",
    `await import(${json(manifest.url)});`,
    "const modules = {};",
    // One chunk: its module namespace itself, as `import * as` gives `<Scripts>`.
    ...routes.map(({ id, chunks }) =>
      chunks.length === 1
        ? `modules[${json(id)}] = await import(${json(chunks[0])});`
        : `modules[${json(id)}] = Object.assign({}, ${chunks.map((chunk) => `await import(${json(chunk)})`).join(", ")});`,
    ),
    "window.__reactRouterRouteModules = modules;",
    `import(${json(manifest.entry.module)});`,
  ].join("\n");
}
