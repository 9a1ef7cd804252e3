import type { Route } from "./+types/test.slow";

const MAX_DELAY_MS = 10_000;

/** A response that takes `?ms=` milliseconds, so tests can stop the server mid-request. */
export async function loader({ request }: Route.LoaderArgs) {
  const ms = Math.min(Number(new URL(request.url).searchParams.get("ms")) || 0, MAX_DELAY_MS);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return new Response(`slept ${ms} ms`, { headers: { "Content-Type": "text/plain" } });
}
