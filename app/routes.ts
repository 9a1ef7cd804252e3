import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  // Test-only pages: each answers 404 unless ENABLE_TEST_ROUTES is set (tests/e2e).
  route("__test/toast", "routes/test.toast.tsx"),
  route("__test/error", "routes/test.error.tsx"),
  route("__test/slow", "routes/test.slow.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
