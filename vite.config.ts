import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server entry (the Hono app) is bundled into the server build, so it can import app
  // modules and aliases; server.js only loads the result. React Router 8 reads this input
  // from the ssr environment, not from build.rollupOptions.
  environments: {
    ssr: {
      build: { rollupOptions: { input: "./server/app.ts" } },
      // Bundled, so only what the server uses is loaded: importing drizzle-orm from
      // node_modules alone costs ~130 MB at start-up (its package.json exports map), and the
      // icon packages load thousands of icons. Start-up peak fell from 308 MB to 87 MB.
      resolve: {
        noExternal: [
          "drizzle-orm",
          "lucide-react",
          "simple-icons",
          "zod",
          "hono",
          "@hono/node-server",
        ],
      },
    },
  },
  resolve: { tsconfigPaths: true },
  // KaTeX's fonts stay files (content-hashed, cached for good): a data: URL breaks the Content
  // Security Policy's font-src 'self'.
  build: { assetsInlineLimit: (file) => (/katex/i.test(file) ? false : undefined) },
  plugins: [tailwindcss(), reactRouter()],
  server: {
    // PGlite writes into DATA_DIR while the dev server runs; watching it would reload the page on
    // every write.
    watch: { ignored: ["**/data/**", "**/.test-output/**"] },
  },
});
