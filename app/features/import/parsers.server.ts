// Each export's parser on its own, for callers that know the kind (tests, benchmarks). Loaded
// through `importParsers()` (index.server.ts), so that the server does not hold their libraries.
export { parseDevto } from "./devto.server";
export { parseGhost } from "./ghost.server";
export { parseMarkdown } from "./markdown.server";
export { parseMedium } from "./medium.server";
export { parseWordPress } from "./wordpress.server";
