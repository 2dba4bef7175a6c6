import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AiConsent } from "@ledger/engine"

/** The pure rules of section 7216 consent, as properties (ai-consent/ConsentRules.ts). */

const Rules = AiConsent.ConsentRules
const day = fc.date({ min: new Date("2000-01-01"), max: new Date("2090-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))

describe("validity", () => {
  it("a signed consent lasts one year by default and never more than three", () => {
    fc.assert(fc.property(day, fc.option(day, { nil: null }), (signedOn, requested) => {
      const until = Rules.validUntilAtSigning(requested, signedOn)
      expect(until <= Rules.addYears(signedOn, 3)).toBe(true)
      if (requested === null) expect(until).toBe(Rules.addYears(signedOn, 1))
      else expect(until === requested || until === Rules.addYears(signedOn, 3)).toBe(true)
    }))
    expect(Rules.addYears("2024-02-29", 1)).toBe("2025-02-28")
  })

  it("a request's end date is after today and at most three years on", () => {
    fc.assert(fc.property(day, day, (today, asked) => {
      const problem = Rules.validUntilProblem(asked, today)
      expect(problem === null).toBe(asked > today && asked <= Rules.addYears(today, 3))
    }))
  })

  it("only a signed consent expires, the day after its end", () => {
    fc.assert(fc.property(fc.constantFrom("pending", "valid_now", "superseded", "revoked", "cancelled") as fc.Arbitrary<any>, day, day, (status, until, today) => {
      const read = Rules.statusOn(status, until, today)
      expect(read).toBe(status === "valid_now" && until < today ? "expired" : status)
    }))
  })
})

describe("coverage", () => {
  it("an undeclared agent is never covered; self-hosted and none need no consent; others need an accepting consent", () => {
    const provider = fc.constantFrom("provider_a", "provider_b", "provider_c", "provider_d", "other")
    fc.assert(fc.property(provider, fc.array(fc.array(provider, { maxLength: 5 }), { maxLength: 4 }), (declared, accepted) => {
      expect(Rules.covered(null, accepted)).toBe(false)
      expect(Rules.covered("self_hosted", [])).toBe(true)
      expect(Rules.covered(declared, accepted)).toBe(accepted.some((list) => list.includes(declared)))
    }))
  })

  it("freezes the same text for the same request, so its hash identifies what was signed", () => {
    const input = { companyName: "Acme", providers: ["provider_a"], data_categories: ["books"], purposes: ["bookkeeping"] }
    expect(Rules.textHash(Rules.templateText(input))).toBe(Rules.textHash(Rules.templateText({ ...input })))
    expect(Rules.textHash(Rules.templateText(input))).not.toBe(Rules.textHash(Rules.templateText({ ...input, providers: ["provider_b"] })))
  })
})
