import type { Params, Register } from "react-router";

import type { PendingTexts } from "./route-policy-context";

import type { CacheTag } from "~/lib/cache-tags";
import { BODY_LIMITS } from "~/lib/limits";
import { UPLOAD_LIMITS } from "~/features/media";
import { POST_BODY_LIMIT } from "~/features/posts";
import { RESUME_IMPORT_BODY_LIMIT } from "~/features/profile";
import { IMPORT_BODY_LIMIT } from "~/features/import";
import { SOCIAL_BODY_LIMIT, WEBMENTION_BODY_LIMIT } from "~/features/social";
import { SUBSCRIBE_BODY_LIMIT, SUBSCRIBERS_BODY_LIMIT } from "~/features/subscribers";
import { blogPageParam, blogSearchParam } from "~/lib/pagination";

/**
 * What the server does with each route of app/routes.ts, declared once, keyed by route id (the
 * route's file without its extension). The page cache, the security headers, the body limits
 * and the pending texts all read this table, after React Router's own matcher has found the
 * route (server/routing.ts), so a path means to them exactly what it means to the router.
 *
 * Every route needs an entry: the type below fails to compile when one is missing (after
 * `react-router typegen`), and the server refuses to start with a build that has a route this
 * table does not know.
 */
export type RoutePolicy = {
  /**
   * - `public`: the same for every anonymous visitor; rendered once, kept by the page cache and
   *   CDNs, and dropped when something it shows (`tags`) changes;
   * - `private`: the owner's pages, sign-in and the APIs; never stored by any cache;
   * - `none`: neither (the not-found page, feeds of errors): answered as rendered.
   *
   * Uploads (/media, content-hashed and immutable) are no route: server/media/ answers them at
   * the listener.
   * ActivityPub (WebFinger, NodeInfo, /ap/, and `/` or a post asked for as ActivityPub) is no
   * route either: server/middleware/federation.ts answers it before routing.
   */
  cache: "public" | "private" | "none";
  /**
   * The query parameters the page reads, each normalized exactly as its loader reads it (null:
   * as if absent). Any other parameter (utm_source, fbclid, …) does not change the page, so the
   * cache keys on these alone: `/blog?q=e` and `/blog?q=e%20%20&utm_source=x` are one page.
   */
  query?: Readonly<Record<string, (raw: string) => string | null>>;
  /** What a public page shows, named as the database's change notices name it. */
  tags?: (params: Params) => readonly CacheTag[];
  /**
   * Query parameters that put a page on probation in the page cache: kept only when asked for
   * twice within a window, and in a small share of its own (server/page-cache/store.ts). For
   * pages with unbounded variety (searches), which a flood of made-up URLs would otherwise use
   * to push out the pages everyone reads.
   */
  probation?: readonly string[];
  /**
   * Who may use the route: anyone (the default), or only the signed-in `owner`. Anyone else
   * asking for an owner page is sent to sign in and back; any other request the route would
   * answer gets 401, before any of its own code runs (app/features/owner/access.server.ts,
   * given to each such route by server/route-access.ts). An owner route must be `private`, and
   * a route nested in one owner-only too (the server refuses to start otherwise:
   * server/routing.ts).
   */
  access?: "owner";
  /**
   * The methods the route's action takes, when it refuses the others itself (405, whoever asks):
   * the owner's gate answers only for these. Omitted, every write is the action's.
   */
  actionMethods?: readonly ("POST" | "PUT" | "PATCH" | "DELETE")[];
  /** The largest request body this route reads, in bytes (default: `BODY_LIMITS.form`). */
  bodyLimit?: number;
  /**
   * Whether the page loads React in the browser (default true). Every public page, the home
   * page and its contact form included, says `false`: it arrives as plain HTML with one small
   * inline script for its controls (app/features/site/site-script.ts), no framework JavaScript at
   * all. Only the owner's pages and sign-in hydrate (tests/budgets holds every public page to
   * its JavaScript budget). A client-side navigation from a page that hydrated still
   * renders them in the browser, pending texts included.
   */
  hydrate?: boolean;
  /** Shown while a client-side navigation to this page loads. */
  pendingText?: string;
  /**
   * Whether a navigation from this page to itself (another page of a list, a new search) shows
   * `pendingText` inside the page, which keeps its heading and search form, rather than in the
   * layout.
   */
  pendingInPage?: boolean;
};

/** The original spec's loading texts, shown only as pending UI of client-side navigation. */
export const LOADING_TEXT = { posts: "Loading posts...", page: "Loading..." } as const;

type RouteFiles = Register extends { routeFiles: infer Files } ? Files : never;
/** Every route id of app/routes.ts but the root layout (from `react-router typegen`). */
export type RouteId = Exclude<
  RouteFiles[keyof RouteFiles] extends { id: infer Id } ? Id : never,
  "root"
>;

const PRIVATE: RoutePolicy = { cache: "private" };
/** The owner's pages and APIs: no one else may use them. */
const OWNER: RoutePolicy = { cache: "private", access: "owner" };
/**
 * The profile editor's forms that post files, and the profile form as before: the largest
 * upload, with room for the form's other fields and multipart's boundaries.
 */
const PROFILE_UPLOADS: RoutePolicy = {
  ...OWNER,
  bodyLimit: Math.max(UPLOAD_LIMITS.photo, UPLOAD_LIMITS.cv) + BODY_LIMITS.form,
};
/** The subscription's public pages: private, small bodies, no hydration. */
const SUBSCRIPTION: RoutePolicy = {
  cache: "private",
  hydrate: false,
  bodyLimit: SUBSCRIBE_BODY_LIMIT,
};
/** The feeds (RSS, Atom, JSON Feed; the blog's and each tag's) show posts and the owner's name. */
const FEED: RoutePolicy = { cache: "public", tags: () => ["posts", "site"] };

/**
 * What a public page shows, as the database's change notices name it (app/lib/cache-tags.ts):
 * every page shows the owner's name, title, location, e-mail and share image
 * (`site`); the home page and the résumé also the rest of the profile and both timelines.
 */
const RESUME_TAGS: readonly CacheTag[] = ["site", "profile", "experience", "education"];
export const routePolicies = {
  "routes/home": { cache: "public", hydrate: false, tags: () => RESUME_TAGS },
  "routes/blog": {
    cache: "public",
    hydrate: false,
    query: { page: blogPageParam, q: blogSearchParam },
    probation: ["q"],
    tags: () => ["posts", "site"],
    pendingText: LOADING_TEXT.posts,
    pendingInPage: true,
  },
  "routes/blog.new": OWNER,
  // A post shows others (related posts, tags): any post's change drops every post page.
  "routes/blog.post": {
    cache: "public",
    hydrate: false,
    tags: () => ["post-pages", "site"],
    pendingText: LOADING_TEXT.page,
  },
  "routes/blog.tags": {
    cache: "public",
    hydrate: false,
    tags: () => ["posts", "site"],
    pendingText: LOADING_TEXT.page,
  },
  "routes/blog.tag": {
    cache: "public",
    hydrate: false,
    query: { page: blogPageParam },
    tags: () => ["posts", "site"],
    pendingText: LOADING_TEXT.posts,
    pendingInPage: true,
  },
  "routes/blog.edit": { ...OWNER, pendingText: LOADING_TEXT.page },
  "routes/login": PRIVATE,
  "routes/logout": PRIVATE,
  "routes/admin.messages": OWNER,
  "routes/admin.posts": OWNER,
  "routes/admin.posts.trash": OWNER,
  "routes/admin.posts-export": OWNER,
  "routes/admin.profile": PROFILE_UPLOADS,
  "routes/admin.profile.photo": PROFILE_UPLOADS,
  "routes/admin.profile.cv": PROFILE_UPLOADS,
  "routes/admin.profile.experience": OWNER,
  "routes/admin.profile.education": OWNER,
  // A JSON Resume file (the preview) or the checked document (the confirmation), both multipart.
  "routes/admin.profile.resume": { ...OWNER, bodyLimit: RESUME_IMPORT_BODY_LIMIT },
  // The subscription's pages (a form's answer, a mailed link's page): per visitor, never kept,
  // no framework JavaScript, and a body of one address at most.
  "routes/subscribe": SUBSCRIPTION,
  "routes/subscribe.confirm": SUBSCRIPTION,
  "routes/unsubscribe": SUBSCRIPTION,
  "routes/admin.subscribers": { ...OWNER, bodyLimit: SUBSCRIBERS_BODY_LIMIT },
  // An export file, multipart (the dry run), or the dry run's id (`Import`).
  "routes/admin.import": { ...OWNER, bodyLimit: IMPORT_BODY_LIMIT },
  "routes/admin.subscribers-csv": OWNER,
  "routes/admin.social": { ...OWNER, bodyLimit: SOCIAL_BODY_LIMIT },
  // Webmentions from anywhere: two URLs, form-encoded; answered per request, never kept.
  "routes/webmention": { ...PRIVATE, actionMethods: ["POST"], bodyLimit: WEBMENTION_BODY_LIMIT },
  "routes/api.contact": PRIVATE,
  "routes/api.message-retry": { ...OWNER, actionMethods: ["POST"] },
  "routes/api.posts": { ...OWNER, actionMethods: ["POST"], bodyLimit: POST_BODY_LIMIT },
  "routes/api.post": { ...OWNER, actionMethods: ["PUT", "DELETE"], bodyLimit: POST_BODY_LIMIT },
  "routes/api.post-autosave": { ...OWNER, actionMethods: ["POST"], bodyLimit: POST_BODY_LIMIT },
  "routes/api.post-discard": { ...OWNER, actionMethods: ["POST"], bodyLimit: BODY_LIMITS.form },
  "routes/api.post-revisions": OWNER,
  "routes/api.post-revision": OWNER,
  "routes/api.post-revision-restore": { ...OWNER, actionMethods: ["POST"] },
  "routes/api.images": {
    ...OWNER,
    actionMethods: ["POST"],
    bodyLimit: UPLOAD_LIMITS.image + BODY_LIMITS.form,
  },
  "routes/resume": { cache: "public", tags: () => RESUME_TAGS },
  "routes/rss": FEED,
  "routes/atom": FEED,
  "routes/feed-json": FEED,
  "routes/tag-rss": FEED,
  "routes/tag-atom": FEED,
  "routes/tag-feed-json": FEED,
  "routes/sitemap": { cache: "public", tags: () => ["posts"] },
  "routes/robots": { cache: "public", tags: () => [] },
  // Only in the build the end-to-end tests run (TEST_ROUTES=1, app/routes.ts), and open: the
  // tests seed and read through them without signing in.
  "routes/test.toast": PRIVATE,
  "routes/test.error": PRIVATE,
  "routes/test.slow": PRIVATE,
  "routes/test.posts": PRIVATE,
  "routes/test.contact": PRIVATE,
  "routes/not-found": { cache: "none", hydrate: false },
} satisfies Record<RouteId, RoutePolicy>;

/** The policy of a route id, or undefined for an id this table does not know. */
export function policyOf(id: string): RoutePolicy | undefined {
  return Object.hasOwn(routePolicies, id) ? routePolicies[id as RouteId] : undefined;
}

/**
 * Each route's pending text, for the browser (the root loader sends it with the root's data):
 * all a client-side navigation needs of this table, so the browser never loads the table itself.
 */
export const PENDING_TEXTS: PendingTexts = Object.fromEntries(
  Object.entries(routePolicies as Record<string, RoutePolicy>).flatMap(([id, policy]) =>
    policy.pendingText === undefined
      ? []
      : [[id, { pendingText: policy.pendingText, pendingInPage: policy.pendingInPage === true }]],
  ),
);
