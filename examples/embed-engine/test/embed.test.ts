import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { run } from "../src/Bookkeeping.ts"

/** Each run opens PGlite and migrates a new store, which a busy CI machine can take minutes over. */
const timeout = 300_000

const folders: Array<string> = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

describe("embedding the engine without a server", () => {
  it("keeps books in memory: entries post, balances follow, every write is audited", async () => {
    const summary = await run("memory")
    expect(summary.companyId).toMatch(/^[0-9a-f-]{36}$/)
    expect(summary.entryIds).toHaveLength(2)
    // Natural directions: the bank (asset) and rent (expense) grow with debits, equity with credits.
    expect(summary.balances).toEqual({ "1010": 25_000_00 - 1_800_00, "3010": 25_000_00, "6080": 1_800_00 })
    expect(summary.auditActions.filter((action) => action === "proposeJournalEntry")).toHaveLength(2)
  }, timeout)

  it("keeps books in a folder: a second run replays the first instead of writing twice", async () => {
    const folder = mkdtempSync(join(tmpdir(), "ledger-embed-"))
    folders.push(folder)
    const first = await run(folder)
    const second = await run(folder)
    expect(second.companyId).toBe(first.companyId)
    expect(second.entryIds).toEqual(first.entryIds)
    expect(second.balances).toEqual(first.balances)
  }, timeout)
})
