import { defineConfig } from "tsup"

/**
 * The published build: ESM and bundled type declarations in dist/. The workspace itself runs from
 * src/ (package.json `exports`); `publishConfig.exports` points a packed tarball at dist/.
 * Dependencies stay external: npm installs them beside the package.
 */
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  platform: "neutral",
  target: "es2023",
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: false
})
