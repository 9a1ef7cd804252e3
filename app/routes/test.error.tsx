/** Throws an unexpected error, so tests can check the 500 page shows no internals. */
export function loader() {
  throw new Error("Test failure: SELECT secret FROM internals at /srv/app/server/secret.ts:42");
}

export default function TestError() {
  return null;
}
