import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "tsup"
import { packageBuild } from "../../tsup.shared.ts"

/** The published build (dist/); the workspace itself runs from src/. See tsup.shared.ts. */
export default defineConfig(packageBuild({
  directory: dirname(fileURLToPath(import.meta.url)),
  entry: ["src/index.ts", "src/effect.ts"],
  platform: "neutral"
}))
