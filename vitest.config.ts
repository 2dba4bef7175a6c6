import { defineConfig } from "vitest/config"
import { storeTestFiles } from "./test/store-files.ts"

const include = ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/*/test/**/*.test.ts"]

export default defineConfig({
  test: {
    // LEDGER_TEST_STORE_ONLY=1: only the files that open the store (CI's PostgreSQL pass; test/store-files.ts).
    include: process.env.LEDGER_TEST_STORE_ONLY === "1" ? storeTestFiles(import.meta.dirname, include) : include,
    // PGlite instances are heavy (about 300 MB, a second or two to start): a few files at a time.
    maxWorkers: 2,
    // Test files share a worker's module graph instead of loading the server and engine again for
    // each file (about a third of the suite's time went to imports). Files keep apart by company
    // and by their own app, never by module state.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
