import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "tsup"
import { packageBuild } from "../../tsup.shared.ts"

/**
 * The published build (dist/), with dist/bin.js, which bin/ledger.mjs runs when it exists; the
 * workspace itself runs from src/. See tsup.shared.ts.
 */
export default defineConfig(packageBuild({
  directory: dirname(fileURLToPath(import.meta.url)),
  // ./workers: the job runner, which the testkit drives by hand. ./adapters: the real adapters
  // of the engine's ports (src/adapters/index.ts), for embedders.
  // offload/PoolWorker.ts: the entry of the heavy-work pool's worker threads (offload/Pool.ts).
  entry: ["src/index.ts", "src/bin.ts", "src/workers/Worker.ts", "src/adapters/index.ts", "src/offload/PoolWorker.ts"],
  declarations: ["src/index.ts", "src/workers/Worker.ts", "src/adapters/index.ts"],
  platform: "node"
}))
