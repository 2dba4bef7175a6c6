import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import * as Pagination from "../src/kernel/Pagination.ts"

/** The list handlers' one paging path: what it asks the store for and the page it answers at the boundary. */

interface Row {
  readonly id: number
}

/** Ids 100, 99, ... (newest first, as the lists read), after the cursor's id, at most `limitPlusOne` of them. */
const store = (count: number) => {
  const calls: Array<{ after: number | null; limitPlusOne: number }> = []
  const all: Array<Row> = Array.from({ length: count }, (_, index) => ({ id: 100 - index }))
  const select = (after: number | null, limitPlusOne: number) =>
    Effect.sync(() => {
      calls.push({ after, limitPlusOne })
      return all.filter((row) => after === null || row.id < after).slice(0, limitPlusOne)
    })
  return { calls, select }
}

const list = (request: Pagination.PageRequest, count: number) => {
  const { calls, select } = store(count)
  const page = Effect.runSync(Pagination.listPage(request, select, (row) => row.id, (row) => `item ${row.id}`))
  return { calls, page }
}

const cursorOf = (id: number) => btoa(String(id)).replace(/=+$/, "")

describe("Pagination.listPage", () => {
  it("asks for one row past the limit and, with none, answers an empty last page", () => {
    const { calls, page } = list({ limit: 3 }, 0)
    expect(calls).toEqual([{ after: null, limitPlusOne: 4 }])
    expect(page).toEqual({ data: [], has_more: false, next_cursor: null })
  })

  it("answers exactly `limit` rows as the last page, without a cursor", () => {
    const { page } = list({ limit: 3 }, 3)
    expect(page).toEqual({ data: ["item 100", "item 99", "item 98"], has_more: false, next_cursor: null })
  })

  it("drops the extra row of `limit + 1` and names the last row shown as the cursor", () => {
    const { page } = list({ limit: 3 }, 4)
    expect(page).toEqual({ data: ["item 100", "item 99", "item 98"], has_more: true, next_cursor: cursorOf(98) })
  })

  it("goes on from the cursor it issued, to the end", () => {
    const first = list({ limit: 3 }, 5).page
    const { calls, page } = list({ limit: 3, cursor: first.next_cursor! }, 5)
    expect(calls).toEqual([{ after: 98, limitPlusOne: 4 }])
    expect(page).toEqual({ data: ["item 97", "item 96"], has_more: false, next_cursor: null })
  })

  it("refuses a cursor it did not issue before reading anything", () => {
    const { calls, select } = store(5)
    const exit = Effect.runSyncExit(Pagination.listPage({ cursor: "not a cursor" }, select, (row) => row.id, (row) => row))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(calls).toEqual([])
  })
})

describe("Pagination.listPageLoaded", () => {
  it("loads only the rows shown, never the extra one, and keeps the page's cursor", () => {
    const { select } = store(4)
    const loaded: Array<ReadonlyArray<Row>> = []
    const load = (shown: ReadonlyArray<Row>) =>
      Effect.sync(() => {
        loaded.push(shown)
        return shown.map((row) => ({ id: row.id, loaded: true }))
      })
    const page = Effect.runSync(Pagination.listPageLoaded({ limit: 3 }, select, (row) => row.id, load))
    expect(loaded).toEqual([[{ id: 100 }, { id: 99 }, { id: 98 }]])
    expect(page).toEqual({
      data: [{ id: 100, loaded: true }, { id: 99, loaded: true }, { id: 98, loaded: true }],
      has_more: true,
      next_cursor: cursorOf(98)
    })
    expect(Object.keys(page)).toEqual(["data", "has_more", "next_cursor"])
  })
})
