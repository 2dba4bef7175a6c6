import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { IntegrationMappingRules as MappingRules } from "@ledger/engine/rules"

/** Properties of the integration rules: every drafted entry balances, and what a sync does with an object it has seen. */

const kinds = MappingRules.kinds
const line = fc.record({
  kind: fc.constantFrom(...kinds),
  key: fc.constantFrom("*", "MUG", "TEE", "State tax"),
  amountCents: fc.integer({ min: 1, max: 10_000_000 })
})
const object = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  type: fc.constantFrom("order" as const, "charge" as const, "refund" as const, "payout" as const),
  version: fc.string(),
  date: fc.constant("2026-03-01"),
  description: fc.constant("x"),
  lines: fc.array(line, { minLength: 1, maxLength: 12 })
})
const fullMapping = kinds.map((kind, index) => ({ kind, sourceKey: "*", accountCode: `A${index}`, className: null }))

describe("integration mapping rules", () => {
  it("drafts entries whose debits equal their credits, the clearing account taking the difference", () => {
    fc.assert(fc.property(object, (source) => {
      const drafted = MappingRules.draft(source, fullMapping, "CLR", null)
      if (drafted._tag !== "Entry") return
      const debits = drafted.lines.reduce((sum, entryLine) => sum + (entryLine.debit_cents ?? 0), 0)
      const credits = drafted.lines.reduce((sum, entryLine) => sum + (entryLine.credit_cents ?? 0), 0)
      expect(debits).toBe(credits)
      expect(drafted.totalCents).toBe(debits)
      for (const entryLine of drafted.lines) expect((entryLine.debit_cents ?? 0) > 0 !== (entryLine.credit_cents ?? 0) > 0).toBe(true)
    }))
  })

  it("names every unmapped kind and key instead of guessing an account", () => {
    fc.assert(fc.property(object, fc.subarray([...kinds]), (source, unmapped) => {
      const mappings = fullMapping.filter((mapping) => !unmapped.includes(mapping.kind))
      const drafted = MappingRules.draft(source, mappings, "CLR", null)
      const missing = source.lines.filter((sourceLine) => unmapped.includes(sourceLine.kind))
      if (missing.length > 0) {
        expect(drafted._tag).toBe("Unmapped")
        if (drafted._tag === "Unmapped") for (const gap of missing) expect(drafted.missing).toContain(`${gap.kind}:${gap.key}`)
      } else {
        expect(drafted._tag).not.toBe("Unmapped")
      }
    }))
  })

  it("prefers a key's own mapping over the kind's default, and a null account falls back to the default", () => {
    const mappings = [...fullMapping, { kind: "product" as const, sourceKey: "MUG", accountCode: "4100", className: "Retail" },
      { kind: "product" as const, sourceKey: "TEE", accountCode: null, className: null }]
    expect(MappingRules.resolve(mappings, "product", "MUG", null)).toEqual({ account: "4100", className: "Retail" })
    expect(MappingRules.resolve(mappings, "product", "TEE", null)).toEqual({ account: "A1", className: null })
    expect(MappingRules.resolve([], "payout", "*", "1010")).toEqual({ account: "1010", className: null })
    expect(MappingRules.gaps([], null, ["tip", "fee"])).toEqual(["tip:*", "fee:*"])
  })

  it("never writes an object twice: the same version is unchanged, a changed posted one waits for a person", () => {
    fc.assert(fc.property(
      fc.constantFrom("posted", "proposed", "pending", "needs_review", "skipped", "rejected"),
      fc.string(), fc.string(),
      (status, seenVersion, version) => {
        const decision = MappingRules.classify({ status, version: seenVersion }, version)
        if (status === "pending") expect(decision).toBe("correct_in_place")
        else if (seenVersion === version) expect(decision).toBe("unchanged")
        else expect(decision).toBe("needs_review")
        expect(decision).not.toBe("new")
      }
    ))
    expect(MappingRules.classify(null, "1")).toBe("new")
  })
})
