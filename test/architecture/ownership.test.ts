import { describe, expect, it } from "vitest"
import { expectNone } from "./Sources.ts"
import { folderOf, reaches, sqlTexts, tableOwners } from "./Tables.ts"
import { tableReaches } from "./table-reaches.ts"

/**
 * Each area owns the tables its migrations create (issue 42 item 1, docs/architecture.md "Who
 * owns which table"): another area reads and writes them through the owner's `index.ts`. What
 * breaks the rule today is listed, file by file, in table-reaches.ts, and may only shrink.
 */

const engine = "packages/engine/src/"

describe("table ownership", () => {
  const found = reaches()

  it("every table a migration creates has an owner", () => {
    const owners = tableOwners()
    expect(owners.get("accounts")).toBe("ledger")
    expect(owners.get("contacts")).toBe("sales")
    expect(owners.get("outbox_events")).toBe("pipeline")
    expect(owners.size).toBeGreaterThan(100)
  })

  it("reads a statement's tables from its SQL, not from prose", () => {
    const source = [
      "// a comment FROM contacts is prose",
      "const a = sql`SELECT id FROM contacts c JOIN documents d ON d.contact_id = c.id WHERE c.company_id = ${company}`",
      "const b = sql.unsafe(\"UPDATE accounts SET name = $1\")",
      "const c = `text FROM payments`"
    ].join("\n")
    const statements = sqlTexts("packages/engine/src/ledger/Example.ts", source)
    expect(statements.map((statement) => statement.line)).toEqual([2, 3])
    expect(statements[0]!.sql).toContain("FROM contacts c JOIN documents d")
    expect(folderOf("packages/engine/src/ledger/accounts/AccountStore.ts")).toBe("ledger")
  })

  it("no file names another area's table unless the list of debts names it", () => {
    const unlisted = found
      .filter((reach) => !(tableReaches[reach.file.slice(engine.length)] ?? []).includes(reach.table))
      .map((reach) => `  ${reach.file}:${reach.line} names ${reach.table}, owned by ${reach.owner}: ask the owner's index.ts`)
    expectNone(unlisted, "statements that reach into another area's table:")
  })

  it("the list of debts holds only what still reaches (it shrinks as reaches are fixed)", () => {
    const live = new Set(found.map((reach) => `${reach.file.slice(engine.length)} ${reach.table}`))
    const stale = Object.entries(tableReaches).flatMap(([file, tables]) =>
      tables.filter((table) => !live.has(`${file} ${table}`)).map((table) => `  ${file}: ${table}`))
    expectNone(stale, "entries of table-reaches.ts that no longer reach (remove them):")
  })
})
