import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ControlAccountRules } from "@ledger/engine/rules"

/** AR and AP move only through documents and payments (ADR 0106): the rule alone. */

describe("the rule, as a pure function", () => {
  it("refuses exactly the control lines of a free-form kind, each at its path; other kinds pass", () => {
    const line = fc.record({ account: fc.constantFrom("1010", "1100", "2000", "4000"), control: fc.constantFrom(null, "ar" as const, "ap" as const) })
    const kind = fc.constantFrom("journal_entry", "bank_line", "receipt_expense", "invoice", "bill", "payment_received", "payment_made", "document_void", "migration_import")
    fc.assert(fc.property(kind, fc.array(line, { minLength: 2, maxLength: 8 }), (sourceKind, lines) => {
      const refusal = ControlAccountRules.checkEntry(sourceKind, lines, ["body", "lines"])
      const offending = lines.flatMap((entryLine, index) => entryLine.control === null ? [] : [["body", "lines", index, "account"]])
      const freeForm = ["journal_entry", "bank_line", "receipt_expense"].includes(sourceKind)
      if (!freeForm || offending.length === 0) {
        expect(refusal).toBeNull()
      } else {
        expect(refusal?.type).toBe("control_account_line")
        expect((refusal?.details as any).issues.map((issue: any) => issue.path)).toEqual(offending)
      }
    }))
  })
})
