// Where `react-router build` writes and where the server reads its build: `build/`, or, for a
// build made with TEST_ROUTES=1 (the test-only routes of app/routes.ts), a folder of the tests'
// own, so that such a build never takes the place of the one `npm run serve` starts.
export const TEST_BUILD_DIRECTORY = ".test-output/build";
export const buildDirectory = process.env.TEST_ROUTES === "1" ? TEST_BUILD_DIRECTORY : "build";

/**
 * The files `node server.js` itself reads besides the build (its own imports): what a copy of
 * the site made to be served elsewhere (the audit's, the load tests') must hold, with `build/`
 * and `database/migrations`.
 */
export const SERVER_ENTRY_FILES = [
  "server.js",
  "server/build-directory.mjs",
  "server/tick-maps.mjs",
];
