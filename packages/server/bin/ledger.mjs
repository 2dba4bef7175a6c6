#!/usr/bin/env node
// One way in, whatever has been built. In the workspace, @ledger/engine and @ledger/api resolve to
// their TypeScript sources, which a dist/ built there would import and Node could not load: the
// server runs from its sources (through tsx, a development dependency there). Installed from the
// registry, the packages resolve to their dist/ and so does the server.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const built = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const sources = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const engineFromSources = import.meta.resolve("@ledger/engine").endsWith(".ts")

if (existsSync(built) && !(engineFromSources && existsSync(sources))) {
  await import(built)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import(sources)
}
