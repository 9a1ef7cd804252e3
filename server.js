// Starts the site. Production runs the bundled build (npm run build first); development runs
// the same server entry through Vite, with hot reloading.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));

if (process.env.NODE_ENV === "production") {
  const { main } = await import("./build/server/index.js");
  await main({ root });
} else {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { main } = await vite.ssrLoadModule("./server/app.ts");
  await main({
    root,
    dev: {
      middlewares: vite.middlewares,
      loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build"),
    },
  });
}
