import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Pages and endpoints only the end-to-end tests use (seeding raw posts, a slow response, a toast
 * and an error to look at). They are in the build only when it is made with TEST_ROUTES=1, which
 * `npm test` does into its own folder (react-router.config.ts): a production build has none.
 */
const testRoutes =
  process.env.TEST_ROUTES === "1"
    ? [
        route("__test/toast", "routes/test.toast.tsx"),
        route("__test/error", "routes/test.error.tsx"),
        route("__test/slow", "routes/test.slow.ts"),
        route("__test/posts", "routes/test.posts.ts"),
        route("__test/contact", "routes/test.contact.ts"),
      ]
    : [];

/** The site map. What the server does with each route is declared in ./route-policy.ts. */
export default [
  index("routes/home.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/new", "routes/blog.new.tsx"),
  route("blog/tags", "routes/blog.tags.tsx"),
  route("blog/tags/:tag", "routes/blog.tag.tsx"),
  route("blog/tags/:tag/rss.xml", "routes/rss.ts", { id: "routes/tag-rss" }),
  route("blog/tags/:tag/atom.xml", "routes/atom.ts", { id: "routes/tag-atom" }),
  route("blog/tags/:tag/feed.json", "routes/feed-json.ts", { id: "routes/tag-feed-json" }),
  route("blog/:slug", "routes/blog.post.tsx"),
  route("blog/:id/edit", "routes/blog.edit.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.ts"),
  route("admin/messages", "routes/admin.messages.tsx"),
  // The editor's sections: each form posts to its own section's action.
  route("admin/profile", "routes/admin.profile.tsx", [
    route("photo", "routes/admin.profile.photo.tsx"),
    route("cv", "routes/admin.profile.cv.tsx"),
    route("experience", "routes/admin.profile.experience.tsx"),
    route("education", "routes/admin.profile.education.tsx"),
    route("resume", "routes/admin.profile.resume.tsx"),
  ]),
  route("admin/posts", "routes/admin.posts.tsx"),
  route("admin/import", "routes/admin.import.tsx"),
  route("admin/subscribers", "routes/admin.subscribers.tsx"),
  route("admin/subscribers.csv", "routes/admin.subscribers-csv.ts"),
  route("admin/social", "routes/admin.social.tsx"),
  route("webmention", "routes/webmention.ts"),
  route("admin/posts/trash", "routes/admin.posts.trash.tsx"),
  route("admin/posts/export.zip", "routes/admin.posts-export.ts"),
  route("subscribe", "routes/subscribe.tsx"),
  route("subscribe/confirm", "routes/subscribe.confirm.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("api/messages/:id/retry", "routes/api.message-retry.ts"),
  route("api/posts", "routes/api.posts.ts"),
  route("api/posts/:id", "routes/api.post.ts"),
  route("api/posts/:id/autosave", "routes/api.post-autosave.ts"),
  route("api/posts/:id/discard", "routes/api.post-discard.ts"),
  route("api/posts/:id/revisions", "routes/api.post-revisions.ts"),
  route("api/posts/:id/revisions/:revision", "routes/api.post-revision.ts"),
  route("api/posts/:id/revisions/:revision/restore", "routes/api.post-revision-restore.ts"),
  route("api/images", "routes/api.images.ts"),
  route("resume.json", "routes/resume.ts"),
  route("rss.xml", "routes/rss.ts"),
  route("atom.xml", "routes/atom.ts"),
  route("feed.json", "routes/feed-json.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  ...testRoutes,
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
