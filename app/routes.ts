import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/new", "routes/blog.new.tsx"),
  route("blog/:id", "routes/blog.post.tsx"),
  route("blog/:id/edit", "routes/blog.edit.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.ts"),
  route("admin/messages", "routes/admin.messages.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("api/messages/:id/retry", "routes/api.message-retry.ts"),
  route("api/posts", "routes/api.posts.ts"),
  route("api/posts/:id", "routes/api.post.ts"),
  route("rss.xml", "routes/rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  // Test-only pages: each answers 404 unless ENABLE_TEST_ROUTES is set (tests/e2e).
  route("__test/toast", "routes/test.toast.tsx"),
  route("__test/error", "routes/test.error.tsx"),
  route("__test/slow", "routes/test.slow.ts"),
  route("__test/posts", "routes/test.posts.ts"),
  route("__test/contact", "routes/test.contact.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
