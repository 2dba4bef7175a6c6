import react from "@vitejs/plugin-react"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

/**
 * The web app builds into the server package (packages/server/app), which `ledger serve` serves
 * under /app with hashed, immutable assets (docs/web-app.md). Nothing is loaded from a CDN.
 */
export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("../server/app", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    // The strict CSP allows no inline script: keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false }
  }
})
