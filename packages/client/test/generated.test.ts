import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { Catalog } from "@ledger/api"
import { renderFile, target } from "../scripts/generate.ts"
import { routes } from "../src/generated/Operations.ts"

/**
 * The SDK's types and routes are generated from the contract (scripts/generate.ts): this fails
 * when the file is stale. Fix: `node packages/client/scripts/generate.ts`.
 */
describe("src/generated/Operations.ts", () => {
  it("is what the generator writes from today's catalog", () => {
    expect(readFileSync(target, "utf8") === renderFile(), "stale: run `node packages/client/scripts/generate.ts`").toBe(true)
  })

  it("routes every catalog operation but postMcp as the catalog says", () => {
    const operations = Catalog.operations.filter((operation) => operation.id !== "postMcp")
    expect(Object.keys(routes)).toEqual(operations.map((operation) => operation.id))
    for (const operation of operations) {
      const route = routes[operation.id as keyof typeof routes]
      expect([route[0], route[1], route[2]]).toEqual([operation.method, operation.path, operation.mode])
    }
  })
})
