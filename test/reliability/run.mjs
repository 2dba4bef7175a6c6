#!/usr/bin/env node
// `pnpm test:reliability [--long]`: the reliability suite (docs/reliability.md). Without --long it
// is the small version CI runs with every test; with it, the big one (100,000 fuzzed HTTP bodies,
// 1,000-key idempotency storms, 200 crash cycles on PostgreSQL when DATABASE_URL is set), which
// prints its figures for docs/reliability.md. Extra arguments go to vitest.
import { spawnSync } from "node:child_process"

const args = process.argv.slice(2)
const long = args.includes("--long")
const rest = args.filter((arg) => arg !== "--long")
const files = ["test/reliability", "test/firms/isolation.test.ts"]
const result = spawnSync("pnpm", ["exec", "vitest", "run", ...files, ...rest], {
  stdio: "inherit",
  env: { ...process.env, ...(long ? { LEDGER_RELIABILITY_LONG: "1" } : {}) }
})
process.exit(result.status ?? 1)
