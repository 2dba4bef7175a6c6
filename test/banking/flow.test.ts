import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { subscribeToEvents } from "../support/index.ts"
import { type BankingApp, type Company, companyWithBankAccount, makeBankingApp, ofxFixture } from "./support.ts"

/**
 * The bookkeeper's month over HTTP: import a statement, categorize by rules, match a payment,
 * reconcile to zero (governed-flow.test.ts: what waits for a person or guards the books).
 */

const fixture = ofxFixture

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const setUp = () => companyWithBankAccount(app)

describe("bank accounts", () => {
  it("are tied to an asset or liability account that then cannot be deactivated", async () => {
    const { company, bankAccountId } = await setUp()
    const wrongType = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Card", kind: "credit_card", ledger_account: "1020" })
    expect(wrongType.status).toBe(422)
    expect(wrongType.body.error.type).toBe("validation_failed")
    const taken = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Again", kind: "checking", ledger_account: "1010" })
    expect(taken.status).toBe(422)
    const unknown = await app.write("/v1/bank-accounts", company.ownerKey, { name: "X", kind: "checking", ledger_account: "9999" })
    expect(unknown.body.error.type).toBe("unknown_account")
    const card = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Card", kind: "credit_card", ledger_account: "2100", mask: "1234" })
    expect(card.status).toBe(201)
    const deactivate = await app.write("/v1/accounts/1010/update", company.ownerKey, { active: false, reason: "closing" })
    expect(deactivate.status).toBe(422)
    expect(deactivate.body.error.type).toBe("account_protected")
    const list = await app.call("GET", "/v1/bank-accounts", { token: company.ownerKey })
    expect(list.body.data.map((account: any) => account.id).sort()).toEqual([bankAccountId, card.body.id].sort())
    const renamed = await app.write(`/v1/bank-accounts/${bankAccountId}/update`, company.ownerKey, { name: "Main", mask: null })
    expect(renamed.body.name).toBe("Main")
    expect(renamed.body.ledger_account).toBe("1010")
    const other = await app.createCompany()
    expect((await app.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: other.ownerKey })).status).toBe(404)
  })
})

/** The month's company, its bank account and the owner's token, as each phase below needs them. */
interface Month {
  readonly company: Company
  readonly bankAccountId: number
  readonly token: string
}

/** Imports March (a dry run, then for real, then twice more as duplicates); rules suggest accounts. */
const importMarch = async ({ bankAccountId, token }: Month) => {
  const preview = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, token, {
    format: "ofx",
    content: fixture("asgrim_ofxdata.ofx"),
    dry_run: true
  })
  expect(preview.status).toBe(200)
  expect(preview.body.lines).toHaveLength(3)
  expect(preview.body.import).toBeNull()
  expect((await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}`, { token })).body.data).toHaveLength(0)

  const imported = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, token, {
    format: "ofx",
    content: fixture("asgrim_ofxdata.ofx"),
    filename: "march.ofx"
  })
  expect(imported.status).toBe(201)
  expect(imported.body.lines_imported).toBe(3)
  expect(imported.body.statements[0].ledger_balance_cents).toBe(525000)

  const again = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, token, { format: "ofx", content: fixture("asgrim_ofxdata.ofx") })
  expect(again.body.lines_imported).toBe(0)
  expect(again.body.duplicates).toBe(3)
  const asXml = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, token, { format: "ofx", content: fixture("asgrim_ofxdata-xml.ofx") })
  expect(asXml.body.lines_imported).toBe(0)

  const rule = await app.write("/v1/bank-rules", token, {
    name: "Hancock is insurance",
    priority: 10,
    payee_contains: "hancock",
    direction: "out",
    account: "6030"
  })
  expect(rule.status).toBe(201)
  await app.write("/v1/bank-rules", token, { name: "Catch-all deposits", priority: 100, direction: "in", account: "4900" })

  const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&status=unmatched`, { token })).body.data
  expect(lines).toHaveLength(3)
  const hancock = lines.find((line: any) => line.payee === "John Hancock")
  const deposit = lines.find((line: any) => line.amount_cents === 20000)
  const transfer = lines.find((line: any) => line.amount_cents === 15000)
  expect(hancock.suggestion.account).toBe("6030")
  expect(hancock.suggestion.rule_id).toBe(rule.body.id)
  expect(deposit.suggestion.account).toBe("4900")
  return { hancock, deposit, transfer }
}

/** Categorizes the withdrawal by its suggestion, matches the deposit to a payment, and books the transfer. */
const categorizeAndMatch = async ({ bankAccountId, token }: Month, lines: Awaited<ReturnType<typeof importMarch>>) => {
  const { hancock, deposit, transfer } = lines
  // Categorize the withdrawal by its suggestion: Dr insurance, Cr bank.
  const categorized = await app.write(`/v1/bank-lines/${hancock.id}/categorize`, token, {
    account: hancock.suggestion.account,
    rule_id: hancock.suggestion.rule_id
  })
  expect(categorized.status).toBe(201)
  expect(categorized.body.status).toBe("categorized")
  const entry = await app.call("GET", `/v1/journal-entries/${categorized.body.entry_id}`, { token })
  expect(entry.body.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([
    ["6030", 10000, 0],
    ["1010", 0, 10000]
  ])
  const twice = await app.write(`/v1/bank-lines/${hancock.id}/categorize`, token, { account: "6030" })
  expect(twice.status).toBe(409)
  expect(twice.body.error.type).toBe("bank_line_state")

  // A payment recorded in the books is matched to the deposit line.
  const posted = await app.write("/v1/journal-entries/propose", token, {
    entry_date: "2007-03-14",
    memo: "Customer payment",
    lines: [{ account: "1010", debit_cents: 20000 }, { account: "4000", credit_cents: 20000 }]
  })
  expect(posted.status).toBe(201)
  const wrongEntry = await app.write(`/v1/bank-lines/${transfer.id}/match`, token, { entry_id: posted.body.id })
  expect(wrongEntry.status).toBe(422)
  expect(wrongEntry.body.error.type).toBe("entry_not_matchable")
  const autoPreview = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, token, { dry_run: true })
  expect(autoPreview.body.matched).toEqual([{ bank_line_id: deposit.id, entry_id: posted.body.id }])
  const auto = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, token, { window_days: 3 })
  expect(auto.body.matched).toHaveLength(1)

  // The transfer: excluded, restored, then categorized to owner's investment.
  const excluded = await app.write(`/v1/bank-lines/${transfer.id}/exclude`, token, { reason: "checking" })
  expect(excluded.body.status).toBe("excluded")
  const restored = await app.write(`/v1/bank-lines/${transfer.id}/restore`, token, {})
  expect(restored.body.status).toBe("unmatched")
  expect((await app.write(`/v1/bank-lines/${transfer.id}/categorize`, token, { account: "3010" })).status).toBe(201)
}

/** Reconciles March to zero (refused while a cent off); answers the reconciliation's id. */
const reconcileMarch = async ({ company, bankAccountId, token }: Month): Promise<number> => {
  // Reconcile March: the statement shows the deposit and the transfer.
  const start = await app.write(`/v1/bank-accounts/${bankAccountId}/reconciliations`, token, {
    statement_date: "2007-03-31",
    statement_ending_balance_cents: 35000,
    auto_clear: true
  })
  expect(start.status).toBe(201)
  expect(start.body.beginning_balance_cents).toBe(0)
  expect(start.body.cleared.map((item: any) => item.amount_cents).sort()).toEqual([15000, 20000])
  expect(start.body.difference_cents).toBe(0)
  const busy = await app.write(`/v1/bank-accounts/${bankAccountId}/reconciliations`, token, {
    statement_date: "2007-04-30",
    statement_ending_balance_cents: 0
  })
  expect(busy.body.error.type).toBe("reconciliation_in_progress")

  const wrongBalance = await app.write(`/v1/reconciliations/${start.body.id}/update`, token, { statement_ending_balance_cents: 35001 })
  expect(wrongBalance.body.difference_cents).toBe(1)
  const refused = await app.write(`/v1/reconciliations/${start.body.id}/finish`, token, {})
  expect(refused.status).toBe(422)
  expect(refused.body.error.type).toBe("reconciliation_not_balanced")
  await app.write(`/v1/reconciliations/${start.body.id}/update`, token, { statement_ending_balance_cents: 35000 })
  const finished = await app.write(`/v1/reconciliations/${start.body.id}/finish`, token, {})
  expect(finished.status).toBe(200)
  expect(finished.body.status).toBe("finished")
  const events = await app.query<{ event_type: string }>(
    "SELECT event_type FROM outbox_events WHERE company_id = $1 AND event_type = 'reconciliation.finished'",
    [company.companyId]
  )
  expect(events).toHaveLength(1)
  const cancel = await app.write(`/v1/reconciliations/${start.body.id}/cancel`, token, { reason: "oops" })
  expect(cancel.body.error.type).toBe("reconciliation_closed")
  return start.body.id
}

/** The report ties out, a cleared line stays matched, and undoing March frees its lines. */
const tieOutAndUndo = async ({ bankAccountId, token }: Month, reconciliationId: number, depositId: number) => {
  // A cleared line cannot be unmatched; the report ties out.
  const unmatch = await app.write(`/v1/bank-lines/${depositId}/unmatch`, token, { reason: "wrong" })
  expect(unmatch.status).toBe(409)
  expect(unmatch.body.error.type).toBe("bank_line_reconciled")
  const report = await app.call("GET", `/v1/reconciliations/${reconciliationId}/report`, { token })
  expect(report.body.tie_out).toMatchObject({ beginning_balance_cents: 0, cleared_deposits_cents: 35000, difference_cents: 0 })
  const csv = await app.call("GET", `/v1/reconciliations/${reconciliationId}/report?format=csv`, { token })
  expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8")
  expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="reconciliation-${reconciliationId}-2007-03-31.csv"`)
  const rows = (csv.body as string).split("\r\n")
  expect(rows[0]).toBe("section,entry_id,date,amount,memo,bank_line_id")
  expect(rows).toContain("tie_out,,2007-03-31,350.00,cleared_deposits,")

  // April starts where March ended; undo March and April's beginning follows.
  const bank = await app.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token })
  expect(bank.body.reconciliation.last_statement_date).toBe("2007-03-31")
  expect(bank.body.ledger_balance_cents).toBe(25000)
  expect(bank.body.imports).toHaveLength(3)
  const undone = await app.write(`/v1/reconciliations/${reconciliationId}/undo`, token, { reason: "statement was wrong" })
  expect(undone.body.status).toBe("undone")
  const unmatched = await app.write(`/v1/bank-lines/${depositId}/unmatch`, token, { reason: "wrong" })
  expect(unmatched.body.status).toBe("unmatched")
}

describe("a month end to end", () => {
  it("imports, dedupes, suggests by rule, categorizes, matches and reconciles to zero", async () => {
    const { company, bankAccountId } = await setUp()
    await subscribeToEvents(app, company)
    const month: Month = { company, bankAccountId, token: company.ownerKey }
    const lines = await importMarch(month)
    await categorizeAndMatch(month, lines)
    const reconciliationId = await reconcileMarch(month)
    await tieOutAndUndo(month, reconciliationId, lines.deposit.id)
  })
})
