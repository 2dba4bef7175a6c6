import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, makeBankingApp, repositoryFolder } from "./support.ts"

/** spec-coverage lists 4.5 Banking and 4.6 Reconciliation as complete in the published OpenAPI document. */

let app: BankingApp
const folder = mkdtempSync(path.join(tmpdir(), "ledger-banking-coverage-"))
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
  rmSync(folder, { recursive: true, force: true })
})

describe("spec coverage", () => {
  it("publishes every operation of 4.5 and 4.6", async () => {
    const document = await app.call("GET", "/openapi.json")
    expect(document.status).toBe(200)
    const file = path.join(folder, "openapi.json")
    writeFileSync(file, JSON.stringify(document.body))
    const report = execFileSync(process.execPath, [path.join(repositoryFolder, "tools/spec-coverage.mjs"), file], { encoding: "utf8" })
    const line = (area: string) => report.split("\n").find((text) => text.includes(area)) ?? ""
    expect(line("4.5 Banking")).toMatch(/^ok +24\/24 /u)
    expect(line("4.6 Reconciliation")).toMatch(/^ok +8\/8 /u)
  })
})
