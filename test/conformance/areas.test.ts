import { describe, expect, it } from "vitest"
import { Catalog } from "@ledger/api"

/** `Catalog.areas` (MCP's toolsets) holds every operation of the catalog exactly once, in its area. */
describe("the catalog's areas", () => {
  it("partition the operations", () => {
    const inAreas = Object.values(Catalog.areas).flatMap((operations) => operations.map((operation) => operation.id))
    expect(new Set(inAreas).size).toBe(inAreas.length)
    expect([...inAreas].sort()).toEqual(Catalog.operations.map((operation) => operation.id).sort())
  })
})
