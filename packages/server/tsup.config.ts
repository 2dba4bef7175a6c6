import { defineConfig } from "tsup"

/**
 * The published build: ESM and bundled type declarations in dist/, plus dist/bin.js, which
 * bin/ledger.mjs runs when it exists. The workspace itself runs from src/ (package.json
 * `exports`); `publishConfig.exports` points a packed tarball at dist/.
 */
export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm"],
  platform: "node",
  target: "node24",
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: false
})
