import { describe, expect, it } from "vitest"
import { Ledger } from "@ledger/engine"

/**
 * An approved proposal's entry names its source as the direct write would (issue 38 item 11,
 * docs/governed-writes.md): every proposal kind an area registers gives a `sourceId` hook, except
 * a person's own journal entry, which is posted for no record. `bank_transfer` and
 * `integration_sale` had none, so their approvals posted with `source.id` null.
 */

const unsourced = new Set(["journal_entry"])

describe("the proposal kinds' sources", () => {
  it("every registered proposal kind names the entry's source on approval", () => {
    const kinds = Ledger.areas.flatMap((area) => Object.entries(area.proposalKinds).map(([name, kind]) => ({ area: area.name, name, kind })))
    expect(kinds.map((kind) => kind.name)).toEqual(expect.arrayContaining(["bank_transfer", "integration_sale", "invoice", "bank_line"]))
    const without = kinds.filter((kind) => !unsourced.has(kind.name) && kind.kind.sourceId === undefined)
    expect(without.map((kind) => `${kind.area}: ${kind.name}`)).toEqual([])
  })
})
