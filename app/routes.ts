import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/:id", "routes/blog.post.tsx"),
  route("rss.xml", "routes/rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  // Test-only pages: each answers 404 unless ENABLE_TEST_ROUTES is set (tests/e2e).
  route("__test/toast", "routes/test.toast.tsx"),
  route("__test/error", "routes/test.error.tsx"),
  route("__test/slow", "routes/test.slow.ts"),
  route("__test/posts", "routes/test.posts.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
