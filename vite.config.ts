import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server entry (the Hono app) is bundled into the server build, so it can import app
  // modules and aliases; server.js only loads the result. React Router 8 reads this input
  // from the ssr environment, not from build.rollupOptions.
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
  server: {
    // PGlite writes into DATA_DIR while the dev server runs (TOOLCHAIN pitfall 7).
    watch: { ignored: ["**/data/**", "**/.test-output/**"] },
  },
});
