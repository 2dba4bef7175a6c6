import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { ApiError } from "@ledger/api"
import { Audit } from "@ledger/engine"
const { ofRefusal, refusedIssuesMax } = Audit

/** The audit event of a refusal (Audit.ofRefusal): the error as the client saw it, bounded in size. */

const actor = {
  type: "user",
  id: 3,
  name: "Clerk",
  role: "staff",
  companyId: "company",
  scopes: ["read"],
  isPerson: true,
  keyId: 9,
  credentialKind: "api_key",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: null
} as const

const refusalOf = (error: ApiError.LedgerError) =>
  ofRefusal({ actor, companyId: "company", action: "createUser", agentModel: null, agentRunId: null, via: "http", now: "2026-06-01T08:00:00.000Z", error })

describe("Audit.ofRefusal", () => {
  it("keeps the error's type, status, message and details", () => {
    const event = refusalOf(ApiError.fail("insufficient_scope", "This operation needs the write scope.", { required_scope: "write" }))
    expect(event).toMatchObject({
      companyId: "company",
      action: "createUser",
      outcome: "refused",
      status: 403,
      errorType: "insufficient_scope",
      via: "http",
      details: { message: "This operation needs the write scope.", required_scope: "write" }
    })
  })

  it("keeps at most the first issues of an invalid request, with their count when it cut them", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 * refusedIssuesMax }), (count) => {
      const issues = Array.from({ length: count }, (_, index) => ({ path: ["body", `field_${index}`], message: "Expected a string" }))
      const details = refusalOf(ApiError.invalidRequest(issues)).details!
      expect(details.issues).toEqual(issues.slice(0, refusedIssuesMax))
      if (count > refusedIssuesMax) expect(details.issues_count).toBe(count)
      else expect(details).not.toHaveProperty("issues_count")
    }), { examples: [[refusedIssuesMax], [refusedIssuesMax + 1]] })
  })
})
