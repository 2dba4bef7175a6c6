import { defineConfig } from "tsup"

/**
 * The published build: ESM and bundled type declarations in dist/. The workspace itself runs from
 * src/ (package.json `exports`); `publishConfig.exports` points a packed tarball at dist/.
 */
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  platform: "node",
  target: "node24",
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: false
})
