import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    // PGlite instances are heavy (about 300 MB, a second or two to start): a few files at a time.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
