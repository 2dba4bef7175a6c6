import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, type Company, makeBankingApp } from "./support.ts"

/**
 * Random sequences of imports, categorizations, matches, unmatches and reconciliations on one
 * bank account. After every step: cleared plus uncleared equals the book balance of the bank's
 * ledger account; a finish at a nonzero difference is refused; undoing a reconciliation puts the
 * bank account back exactly as it was before that reconciliation started.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

type Action =
  | { readonly kind: "import"; readonly amounts: ReadonlyArray<number>; readonly day: number }
  | { readonly kind: "categorize"; readonly pick: number }
  | { readonly kind: "match"; readonly pick: number }
  | { readonly kind: "unmatch"; readonly pick: number }
  | { readonly kind: "reconcile"; readonly picks: ReadonlyArray<number>; readonly off: number; readonly undo: boolean }

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant("import" as const),
    amounts: fc.array(fc.integer({ min: -50_000, max: 50_000 }).filter((value) => value !== 0), { minLength: 1, maxLength: 4 }),
    day: fc.integer({ min: 1, max: 28 })
  }),
  fc.record({ kind: fc.constant("categorize" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("match" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("unmatch" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("reconcile" as const),
    picks: fc.array(fc.nat(), { maxLength: 6 }),
    off: fc.integer({ min: -3, max: 3 }),
    undo: fc.boolean()
  })
)

const isoDay = (month: number, day: number) => `2025-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
const amountText = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`

/** The bank account under test, and where the sequence is: the statement month and imports so far. */
interface Books {
  readonly company: Company
  readonly token: string
  readonly bankAccountId: number
  month: number
  importCount: number
}

type StepOf<Kind extends Action["kind"]> = Extract<Action, { readonly kind: Kind }>

const lines = async (books: Books, status: string) =>
  (await app.call("GET", `/v1/bank-lines?bank_account_id=${books.bankAccountId}&status=${status}&limit=1000`, { token: books.token })).body
    .data as Array<any>

/** What a reconciliation that is cancelled or undone must leave exactly as it was. */
const snapshot = async (books: Books) => {
  const account = (await app.call("GET", `/v1/bank-accounts/${books.bankAccountId}`, { token: books.token })).body
  const cleared = await app.query<{ entry_id: string; amount_cents: string }>(
    "SELECT entry_id::text, amount_cents::text FROM reconciliation_items WHERE company_id = $1 ORDER BY entry_id",
    [books.company.companyId]
  )
  return { account: { ...account, imports: account.imports.length }, cleared }
}

/** Cleared plus uncleared equals the book balance of the bank's ledger account. */
const checkBalances = async (books: Books) => {
  const account = (await app.call("GET", `/v1/bank-accounts/${books.bankAccountId}`, { token: books.token })).body
  const [{ cleared }] = await app.query<{ cleared: string }>(
    "SELECT coalesce(sum(amount_cents), 0)::text AS cleared FROM reconciliation_items WHERE company_id = $1",
    [books.company.companyId]
  ) as [{ cleared: string }]
  // Uncleared straight from the journal lines, not from the daily totals the balance comes from.
  const [{ uncleared }] = await app.query<{ uncleared: string }>(
    `SELECT coalesce(sum(l.amount_cents), 0)::text AS uncleared FROM journal_lines l
      JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
      WHERE l.company_id = $1 AND a.code = '1010' AND NOT EXISTS (SELECT 1 FROM reconciliation_items i
        WHERE i.company_id = l.company_id AND i.entry_id = l.entry_id)`,
    [books.company.companyId]
  ) as [{ uncleared: string }]
  expect(Number(cleared) + Number(uncleared)).toBe(account.ledger_balance_cents)
}

const importStep = async (books: Books, step: StepOf<"import">) => {
  books.importCount++
  const csv = ["Date,Description,Amount", ...step.amounts.map((cents, index) => `${isoDay(books.month, step.day)},Item ${books.importCount}-${index},${amountText(cents)}`)]
  const imported = await app.write(`/v1/bank-accounts/${books.bankAccountId}/imports`, books.token, { format: "csv", content: csv.join("\n") })
  expect(imported.status).toBe(201)
  expect(imported.body.lines_imported).toBe(step.amounts.length)
}

const categorizeStep = async (books: Books, step: StepOf<"categorize">) => {
  const open = await lines(books, "unmatched")
  if (open.length === 0) return
  const line = open[step.pick % open.length]
  const done = await app.write(`/v1/bank-lines/${line.id}/categorize`, books.token, { account: line.amount_cents > 0 ? "4000" : "6070" })
  expect(done.status).toBe(201)
}

const matchStep = async (books: Books, step: StepOf<"match">) => {
  const open = await lines(books, "unmatched")
  if (open.length === 0) return
  const line = open[step.pick % open.length]
  const size = Math.abs(line.amount_cents)
  const entry = await app.write("/v1/journal-entries/propose", books.token, {
    entry_date: line.date,
    lines: line.amount_cents > 0
      ? [{ account: "1010", debit_cents: size }, { account: "4900", credit_cents: size }]
      : [{ account: "6070", debit_cents: size }, { account: "1010", credit_cents: size }]
  })
  expect(entry.status).toBe(201)
  const matched = await app.write(`/v1/bank-lines/${line.id}/match`, books.token, { entry_id: entry.body.id })
  expect(matched.body.status).toBe("matched")
}

const unmatchStep = async (books: Books, step: StepOf<"unmatch">) => {
  const linked = [...await lines(books, "matched"), ...await lines(books, "categorized")]
  if (linked.length === 0) return
  const line = linked[step.pick % linked.length]
  const result = await app.write(`/v1/bank-lines/${line.id}/unmatch`, books.token, { reason: "property test" })
  expect([200, 409]).toContain(result.status)
  if (result.status === 409) expect(result.body.error.type).toBe("bank_line_reconciled")
}

/** Reconciles the month with the picked candidates cleared, `off` cents from balanced; maybe undoes it. */
const reconcileStep = async (books: Books, step: StepOf<"reconcile">) => {
  const before = await snapshot(books)
  const statementDate = isoDay(books.month, 28)
  books.month++
  const started = await app.write(`/v1/bank-accounts/${books.bankAccountId}/reconciliations`, books.token, {
    statement_date: statementDate,
    statement_ending_balance_cents: 0
  })
  expect(started.status).toBe(201)
  const candidates: Array<any> = started.body.candidates
  const chosen = Array.from(new Set(step.picks.filter(() => candidates.length > 0).map((pick) => candidates[pick % candidates.length].entry_id)))
  const cleared = await app.write(`/v1/reconciliations/${started.body.id}/update`, books.token, { clear: chosen })
  expect(cleared.status).toBe(200)
  const exact = cleared.body.cleared_balance_cents as number
  await app.write(`/v1/reconciliations/${started.body.id}/update`, books.token, { statement_ending_balance_cents: exact + step.off })
  await checkBalances(books)
  const finished = await app.write(`/v1/reconciliations/${started.body.id}/finish`, books.token, {})
  if (step.off !== 0) {
    expect(finished.status).toBe(422)
    expect(finished.body.error.type).toBe("reconciliation_not_balanced")
    const cancelled = await app.write(`/v1/reconciliations/${started.body.id}/cancel`, books.token, { reason: "off" })
    expect(cancelled.body.status).toBe("cancelled")
    expect(await snapshot(books)).toEqual(before)
    books.month--
    return
  }
  expect(finished.status).toBe(200)
  expect(finished.body.beginning_balance_cents).toBe(before.account.reconciliation.last_statement_ending_balance_cents ?? 0)
  if (step.undo) {
    const undone = await app.write(`/v1/reconciliations/${started.body.id}/undo`, books.token, { reason: "property test" })
    expect(undone.status).toBe(200)
    expect(await snapshot(books)).toEqual(before)
    books.month--
  }
}

const stepOf = (books: Books, step: Action): Promise<void> => {
  switch (step.kind) {
    case "import":
      return importStep(books, step)
    case "categorize":
      return categorizeStep(books, step)
    case "match":
      return matchStep(books, step)
    case "unmatch":
      return unmatchStep(books, step)
    case "reconcile":
      return reconcileStep(books, step)
  }
}

const run = async (actions: ReadonlyArray<Action>) => {
  const company: Company = await app.createCompany()
  const token = company.ownerKey
  const bank = await app.write("/v1/bank-accounts", token, { name: "Checking", kind: "checking", ledger_account: "1010" })
  const books: Books = { company, token, bankAccountId: bank.body.id as number, month: 1, importCount: 0 }
  for (const step of actions) {
    await stepOf(books, step)
    await checkBalances(books)
  }
}

describe("banking properties", () => {
  it("keeps cleared + uncleared = book, refuses finish off zero, and undo restores exactly", async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 14 }), run), { numRuns: 12 })
  }, 600_000)
})
