import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Scope } from "@ledger/api"
import { FirmAuditRules, FirmPrincipal, PostingPolicy } from "@ledger/engine/rules"
const { capped, closure, memberRoleScopes, proposesOnly } = FirmPrincipal

/** The scope ceiling and the hash chain, as properties. */

const scopeSet = fc.subarray([...Scope.scopes]) as fc.Arbitrary<Array<Scope.Scope>>

describe("the grant's scope ceiling", () => {
  it("never lets a firm principal do what any ceiling forbids, and lets it do what all allow", () => {
    fc.assert(fc.property(fc.array(scopeSet, { minLength: 1, maxLength: 4 }), fc.constantFrom(...Scope.scopes), (ceilings, needed) => {
      const effective = capped(...ceilings)
      const allAllow = ceilings.every((ceiling) => Scope.satisfies(ceiling, needed))
      expect(Scope.satisfies(effective, needed)).toBe(allAllow)
    }))
  })

  it("is monotone: a narrower grant never gives more", () => {
    fc.assert(fc.property(scopeSet, scopeSet, scopeSet, (key, grant, narrower) => {
      const wide = capped(key, grant)
      const narrow = capped(key, capped(grant, narrower))
      expect(narrow.every((scope) => wide.includes(scope))).toBe(true)
    }))
  })

  it("an assignment without scopes of its own imposes nothing; an empty ceiling leaves nothing", () => {
    fc.assert(fc.property(scopeSet, scopeSet, (key, grant) => {
      expect(capped(key, grant, null)).toEqual(capped(key, grant))
      expect(capped(key, [])).toEqual([])
      expect(closure(closure(key))).toEqual(closure(key))
    }))
  })
})

describe("the ceiling on a firm member's writes (ADR 0903)", () => {
  it("a member posts in a client exactly when its key, role and grant all allow approve; otherwise it proposes or is refused", () => {
    fc.assert(fc.property(
      scopeSet,
      fc.constantFrom("admin", "cpa", "bookkeeper" as const),
      scopeSet,
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.constantFrom<PostingPolicy.PeriodStatus | null>(null, "open", "soft_locked", "hard_locked"),
      fc.option(fc.constant("Late invoice"), { nil: null }),
      (key, role, grant, totalCents, periodStatus, overrideReason) => {
        const scopes = capped(key, memberRoleScopes[role], grant)
        const only = proposesOnly({ type: "firm_member" }, scopes)
        expect(only).toBe(!Scope.satisfies(key, "approve") || role === "bookkeeper" || !Scope.satisfies(grant, "approve"))
        const decision = PostingPolicy.decide({
          actor: { isPerson: true, postingThresholdCents: null, proposesOnly: only },
          totalCents,
          periodStatus,
          softLockOverrideReason: overrideReason
        })
        const periodRefuses = PostingPolicy.periodCheck(periodStatus, overrideReason).refusal !== null
        expect(decision.verdict).toBe(periodRefuses ? "refuse" : only ? "propose" : "post")
        // A firm agent is never capped this way: its threshold decides.
        expect(proposesOnly({ type: "firm_agent" }, scopes)).toBe(false)
      }
    ))
  })
})

const eventArbitrary = fc.record({
  action: fc.constantFrom("createFirmMember", "createFirmKey", "revokeFirmKey", "setFirmKillSwitch"),
  principal_id: fc.option(fc.integer({ min: 1, max: 1_000_000 }).map(String), { nil: null }),
  reason: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  details: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean()))
})

type EventInput = typeof eventArbitrary extends fc.Arbitrary<infer T> ? T : never

const chainOf = (inputs: ReadonlyArray<EventInput>) => {
  const events: Array<FirmAuditRules.ChainedEvent & { hash: string }> = []
  let previous = FirmAuditRules.genesis
  inputs.forEach((input, index) => {
    const event = {
      firm_id: 7,
      seq: index + 1,
      occurred_at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
      action: input.action,
      principal_type: "firm_member",
      principal_id: input.principal_id,
      principal_name: "Ada",
      key_id: null,
      company_id: null,
      target_type: null,
      target_id: null,
      reason: input.reason,
      via: "http",
      details: input.details,
      prev_hash: previous
    }
    const hash = FirmAuditRules.hashOf(event)
    events.push({ ...event, hash })
    previous = hash
  })
  return { events, head: { seq: events.length, hash: events.length === 0 ? FirmAuditRules.genesis : previous } }
}

describe("the firm log's hash chain", () => {
  it("a chain as written verifies, whatever the order of its details' keys", () => {
    fc.assert(fc.property(fc.array(eventArbitrary, { maxLength: 20 }), (inputs) => {
      const { events, head } = chainOf(inputs)
      const reordered = events.map((event) => ({ ...event, details: Object.fromEntries(Object.entries(event.details as object).reverse()) }))
      expect(FirmAuditRules.verify(reordered, head)).toMatchObject({ valid: true, events_checked: events.length })
    }))
  })

  it("any one changed field, dropped event or swap is found, at the first event it breaks", () => {
    fc.assert(fc.property(fc.array(eventArbitrary, { minLength: 2, maxLength: 12 }), fc.nat(), fc.constantFrom("reason", "drop", "swap"), (inputs, pick, how) => {
      const { events, head } = chainOf(inputs)
      const at = pick % events.length
      const tampered = [...events]
      if (how === "reason") tampered[at] = { ...tampered[at]!, reason: `${tampered[at]!.reason ?? ""}!` }
      if (how === "drop") tampered.splice(at, 1)
      if (how === "swap") {
        const other = (at + 1) % events.length
        const [first, second] = [tampered[at]!, tampered[other]!]
        tampered[at] = { ...second, seq: first.seq }
        tampered[other] = { ...first, seq: second.seq }
      }
      const verdict = FirmAuditRules.verify(tampered, head)
      expect(verdict.valid).toBe(false)
      expect(verdict.first_broken_seq).toBe(how === "swap" ? Math.min(at, (at + 1) % events.length) + 1 : at + 1)
    }))
  })
})
