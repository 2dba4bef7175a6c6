#!/usr/bin/env node
// Runs the server from its TypeScript sources in the workspace, or from dist/ once built.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
const built = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
if (existsSync(built)) {
  await import(built)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/bin.ts")
}
