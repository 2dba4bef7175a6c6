import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { FiscalYear, JournalEntryRules as JournalEntry, PeriodRules as PeriodStatus, PostingPolicy } from "@ledger/engine/rules"

const accounts = new Map<string, JournalEntry.AccountRef>([
  ["1010", { id: 1, code: "1010", name: "Checking", type: "asset", active: true }],
  ["2100", { id: 2, code: "2100", name: "Credit Card", type: "liability", active: true }],
  ["4000", { id: 3, code: "4000", name: "Sales", type: "income", active: true }],
  ["6070", { id: 4, code: "6070", name: "Office", type: "expense", active: true }],
  ["6990", { id: 5, code: "6990", name: "Old", type: "expense", active: false }]
])
const activeCodes = ["1010", "2100", "4000", "6070"]

/** A balanced draft: random debits, credits split to match. */
const balancedDraft = fc
  .record({
    debits: fc.array(fc.record({ account: fc.constantFrom(...activeCodes), cents: fc.integer({ min: 1, max: 10_000_000 }) }), {
      minLength: 1,
      maxLength: 20
    }),
    creditAccounts: fc.array(fc.constantFrom(...activeCodes), { minLength: 1, maxLength: 5 })
  })
  .map(({ creditAccounts, debits }) => {
    const total = debits.reduce((sum, line) => sum + line.cents, 0)
    const credits = creditAccounts.map((account, index) => ({
      account,
      cents: index === creditAccounts.length - 1
        ? 0
        : Math.floor(total / creditAccounts.length)
    }))
    const last = credits[credits.length - 1]!
    last.cents = total - credits.reduce((sum, line) => sum + line.cents, 0)
    return {
      date: "2025-03-31",
      lines: [
        ...debits.map((line) => ({ account: line.account, debit_cents: line.cents })),
        ...credits.filter((line) => line.cents > 0).map((line) => ({ account: line.account, credit_cents: line.cents }))
      ]
    } satisfies JournalEntry.DraftEntry
  })
  .filter((draft) => draft.lines.length >= 2)

describe("JournalEntry", () => {
  it("accepts every balanced draft; its signed lines sum to zero and the reversal negates each", () => {
    fc.assert(fc.property(balancedDraft, (draft) => {
      expect(JournalEntry.checkShape(draft)).toBeNull()
      const lines = JournalEntry.resolve(draft, accounts, new Map())
      if (!Array.isArray(lines)) throw new Error("expected lines")
      expect(lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(0)
      expect(JournalEntry.total(lines)).toBe(JournalEntry.sides(draft.lines).debit)
      const reversal = JournalEntry.reversal(lines)
      expect(reversal.map((line, index) => line.amountCents + lines[index]!.amountCents)).toEqual(lines.map(() => 0))
      expect(JournalEntry.total(reversal)).toBe(JournalEntry.total(lines))
      const sums = JournalEntry.byAccount(lines)
      expect(sums.map((sum) => sum.accountId)).toEqual([...sums.map((sum) => sum.accountId)].sort((a, b) => a - b))
      expect(sums.reduce((sum, row) => sum + row.debitCents - row.creditCents, 0)).toBe(0)
    }))
  })

  it("refuses any draft whose debits and credits differ", () => {
    fc.assert(fc.property(balancedDraft, fc.integer({ min: 1, max: 1000 }), (draft, skew) => {
      const lines = [...draft.lines, { account: "6070", debit_cents: skew }]
      const error = JournalEntry.checkShape({ ...draft, lines })
      expect(error?.type).toBe("unbalanced_entry")
      expect(error?.details?.difference_cents).toBe(skew)
    }))
  })

  it("names zero, two-sided, unknown and inactive lines", () => {
    expect(JournalEntry.checkShape({ date: "2025-01-01", lines: [{ account: "1010", debit_cents: 5 }] })?.type).toBe("single_line_entry")
    expect(JournalEntry.checkShape({ date: "2025-01-01", lines: [] })?.type).toBe("single_line_entry")
    const zero = JournalEntry.checkShape({
      date: "2025-01-01",
      lines: [{ account: "1010", debit_cents: 5 }, { account: "4000" }, { account: "4000", credit_cents: 5 }]
    }, ["entry", "lines"])
    expect(zero?.type).toBe("zero_amount_line")
    expect(zero?.details?.issues).toEqual([{ path: ["entry", "lines", 1], message: expect.any(String) }])
    expect(JournalEntry.checkShape({
      date: "2025-01-01",
      lines: [{ account: "1010", debit_cents: 5, credit_cents: 5 }, { account: "4000", credit_cents: 5 }, { account: "4000", debit_cents: 5 }]
    })?.type).toBe("two_sided_line")
    const unknown = JournalEntry.resolve({
      date: "2025-01-01",
      lines: [{ account: "1010", debit_cents: 5 }, { account: "9999", credit_cents: 5 }]
    }, accounts, new Map())
    expect(Array.isArray(unknown) ? null : (unknown as any).type).toBe("unknown_account")
    const inactive = JournalEntry.resolve({
      date: "2025-01-01",
      lines: [{ account: "6990", debit_cents: 5 }, { account: "1010", credit_cents: 5 }]
    }, accounts, new Map())
    expect(Array.isArray(inactive) ? null : (inactive as any).details.issues[0].path).toEqual(["body", "lines", 0, "account"])
  })

  it("keeps balances in each account's natural direction", () => {
    expect(JournalEntry.naturalSign("asset")).toBe(1)
    expect(JournalEntry.naturalSign("expense")).toBe(1)
    expect(JournalEntry.naturalSign("liability")).toBe(-1)
    expect(JournalEntry.naturalSign("equity")).toBe(-1)
    expect(JournalEntry.naturalSign("income")).toBe(-1)
  })
})

describe("PostingPolicy", () => {
  const statuses = [null, "open", "soft_locked", "hard_locked"] as const
  it("refuses hard locks for everyone, soft locks without a reason, and otherwise follows the actor", () => {
    fc.assert(fc.property(
      fc.boolean(),
      fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
      fc.integer({ min: 1, max: 2_000_000 }),
      fc.constantFrom(...statuses),
      fc.option(fc.string({ minLength: 1 }), { nil: null }),
      (isPerson, threshold, total, status, reason) => {
        const decision = PostingPolicy.decide({
          actor: { isPerson, postingThresholdCents: threshold },
          totalCents: total,
          periodStatus: status,
          softLockOverrideReason: reason
        })
        if (status === "hard_locked") {
          expect(decision.verdict).toBe("refuse")
          expect(decision.refusal?.type).toBe("period_hard_locked")
        } else if (status === "soft_locked" && reason === null) {
          expect(decision.verdict).toBe("refuse")
          expect(decision.refusal?.type).toBe("soft_lock_reason_required")
        } else if (isPerson) {
          expect(decision.verdict).toBe("post")
        } else {
          expect(decision.verdict).toBe(total <= (threshold ?? 0) ? "post" : "propose")
        }
        expect(decision.reasons.length).toBeGreaterThan(0)
      }
    ))
  })

  it("posts at the threshold exactly and proposes one cent over; forced review always proposes for agents", () => {
    const agent = { isPerson: false, postingThresholdCents: 5000 }
    expect(PostingPolicy.decide({ actor: agent, totalCents: 5000, periodStatus: "open", softLockOverrideReason: null }).verdict).toBe("post")
    expect(PostingPolicy.decide({ actor: agent, totalCents: 5001, periodStatus: "open", softLockOverrideReason: null }).verdict).toBe("propose")
    const review = { type: "receipt_review", message: "Receipts wait for a person." }
    const forced = PostingPolicy.decide({ actor: agent, totalCents: 1, periodStatus: null, softLockOverrideReason: null, alwaysProposeForAgents: review })
    expect(forced.verdict).toBe("propose")
    expect(forced.reasons).toContainEqual(review)
    const person = PostingPolicy.decide({
      actor: { isPerson: true, postingThresholdCents: null },
      totalCents: 1,
      periodStatus: null,
      softLockOverrideReason: null,
      alwaysProposeForAgents: review
    })
    expect(person.verdict).toBe("post")
  })
})

describe("PeriodStatus", () => {
  const all = ["open", "soft_locked", "hard_locked"] as const
  it("allows the transitions of spec 3.2 and nothing else", () => {
    for (const from of all) {
      for (const to of all) {
        for (const actorIsPerson of [true, false]) {
          for (const reason of [null, "Audit adjustment"]) {
            const verdict = PeriodStatus.check({ from, to, actorIsPerson, reason })
            if (from === to) expect(verdict._tag).toBe("Unchanged")
            else if (from !== "hard_locked") expect(verdict._tag).toBe("Allowed")
            else if (to !== "open") expect(verdict).toMatchObject({ _tag: "Refused", type: "invalid_period_transition" })
            else if (!actorIsPerson) expect(verdict).toMatchObject({ _tag: "Refused", type: "insufficient_scope" })
            else if (reason === null) expect(verdict).toMatchObject({ _tag: "Refused", type: "validation_failed", field: "reason" })
            else expect(verdict._tag).toBe("Allowed")
          }
        }
      }
    }
  })

  it("asks a reopening for a reason of its own, not the lock's", () => {
    expect(PeriodStatus.check({ from: "hard_locked", to: "open", actorIsPerson: true, reason: "Year end", lockReason: "Year end" }))
      .toMatchObject({ _tag: "Refused", type: "validation_failed", field: "reason" })
    expect(PeriodStatus.check({ from: "hard_locked", to: "open", actorIsPerson: true, reason: "Restatement", lockReason: "Year end" })._tag).toBe("Allowed")
    expect(PeriodStatus.check({ from: "hard_locked", to: "open", actorIsPerson: true, reason: "Restatement", lockReason: null })._tag).toBe("Allowed")
  })
})

describe("FiscalYear", () => {
  it("names a fiscal year by the calendar year it ends and tiles it with twelve months", () => {
    fc.assert(fc.property(fc.integer({ min: 1901, max: 2199 }), fc.integer({ min: 1, max: 12 }), (year, startMonth) => {
      const range = FiscalYear.range(year, startMonth)
      const months = FiscalYear.months(year, startMonth)
      expect(months).toHaveLength(12)
      expect(months[0]!.start).toBe(range.start)
      expect(months[11]!.end).toBe(range.end)
      expect(range.end.startsWith(String(year))).toBe(true)
      for (let index = 1; index < 12; index++) {
        const next = new Date(Date.parse(`${months[index - 1]!.end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
        expect(months[index]!.start).toBe(next)
      }
      expect(FiscalYear.containing(range.start, startMonth)).toBe(year)
      expect(FiscalYear.containing(range.end, startMonth)).toBe(year)
      const days = FiscalYear.lengthInDays(range)
      expect(days === 365 || days === 366).toBe(true)
    }))
  })

  it("handles a July start and leap Februaries", () => {
    expect(FiscalYear.range(2025, 7)).toEqual({ start: "2024-07-01", end: "2025-06-30" })
    expect(FiscalYear.containing("2024-06-30", 7)).toBe(2024)
    expect(FiscalYear.containing("2024-07-01", 7)).toBe(2025)
    expect(FiscalYear.months(2024, 1)[1]).toEqual({ start: "2024-02-01", end: "2024-02-29" })
    expect(FiscalYear.months(2100, 1)[1]).toEqual({ start: "2100-02-01", end: "2100-02-28" })
  })
})
