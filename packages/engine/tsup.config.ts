import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "tsup"
import { packageBuild } from "../../tsup.shared.ts"

/** The published build (dist/); the workspace itself runs from src/. See tsup.shared.ts. */
export default defineConfig(packageBuild({
  directory: dirname(fileURLToPath(import.meta.url)),
  // ./ports: the ports (their fakes are in @ledger/testkit), for servers, embedders and the testkit.
  // ./rules: the pure domain rules (src/rules.ts), for embedders.
  entry: ["src/index.ts", "src/ports/index.ts", "src/rules.ts", "src/Jobs.ts"],
  platform: "neutral"
}))
