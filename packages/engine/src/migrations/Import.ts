import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type LedgerError } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Actor from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Ledger from "../ledger/index.ts"
import { JournalEntryStore } from "../ledger/index.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as MigrationStore from "./MigrationStore.ts"
import * as OpenItems from "./OpenItems.ts"
import type { SourceAccount } from "./Staging.ts"
import * as TieoutRules from "./TieoutRules.ts"

/**
 * The import of a tied-out extraction into empty books (spec 4.16, ADR 1613): the source's accounts
 * become the chart, each source transaction one entry (`source.kind` `migration_import`), the
 * customers and vendors contacts, the open documents sales documents carrying AR and AP from the
 * as-of date (OpenItems.ts, ADR 2111); then the ledger's own tie-out compares its trial balance at
 * every month end with the extraction's. The
 * attempt runs under a savepoint: on any difference it is rolled back whole (no account, entry or
 * event kept) and only the failed attempt is recorded.
 */

class Mismatch {
  readonly _tag = "Mismatch"
  constructor(readonly differences: ReadonlyArray<unknown>, readonly entries: number) {}
}

const codePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** Ledger codes for the source accounts: the source's account number where usable, else M0001... */
export const codesFor = (accounts: ReadonlyArray<SourceAccount>, taken: ReadonlySet<string>): Map<string, string> => {
  const used = new Set(taken)
  const codes = new Map<string, string>()
  let next = 1
  for (const account of accounts) {
    if (account.type === null) continue
    let code = account.number !== null && codePattern.test(account.number) && account.number.length <= 20 && !used.has(account.number)
      ? account.number
      : null
    while (code === null || used.has(code)) code = `M${String(next++).padStart(4, "0")}`
    used.add(code)
    codes.set(account.id, code)
  }
  return codes
}

/**
 * The account the source's AR and AP pass through on the as-of date while the open documents take
 * them over (ADR 2111): it ends at zero. Only made when there are open documents.
 */
const clearingId = "migration:clearing"
const clearingAccount: SourceAccount = {
  id: clearingId, name: "Migration clearing (open documents)", number: "MIGRATION-CLEARING", type: "equity", special: null, balanceCents: 0
}

const createAccounts = Effect.fn("Import.createAccounts")(function*(company: string, source: ReadonlyArray<SourceAccount>, withClearing: boolean, now: string) {
  const sql = yield* SqlClient.SqlClient
  const existing = yield* sql<{ code: string; control: string | null }>`SELECT code, control FROM accounts WHERE company_id = ${company}`.pipe(Effect.orDie)
  const accounts = withClearing ? [...source, clearingAccount] : source
  const codes = codesFor(accounts, new Set(existing.map((row) => row.code)))
  const controls = new Set(existing.map((row) => row.control).filter((control) => control !== null))
  const added: Array<Ledger.NewAccount> = []
  for (const account of accounts) {
    const code = codes.get(account.id)
    if (code === undefined) continue
    const control = account.special === "ar" || account.special === "ap" ? account.special : null
    added.push({
      code,
      name: account.name,
      type: account.type!,
      subtype: account.special === "sales_tax" ? "sales_tax" : null,
      control: control !== null && !controls.has(control) ? control : null
    })
    if (control !== null) controls.add(control)
  }
  yield* Ledger.addAccounts(company, added, now)
  return codes
})

const ledgerBalances = Effect.fn("Import.ledgerBalances")(function*(company: string, end: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ code: string; total: unknown }>`SELECT a.code, SUM(l.amount_cents) AS total FROM journal_lines l
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = ${company} AND l.entry_date <= ${end} GROUP BY a.code`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [row.code, Row.int(row.total)]))
})

/** The ledger's own tie-out: its trial balance at every month end against the extraction's figures. */
const compare = Effect.fn("Import.compare")(function*(
  company: string,
  bundle: TieoutRules.Bundle,
  codes: ReadonlyMap<string, string>,
  expected: TieoutRules.Tieout["balances"]
) {
  const types = new Map(bundle.accounts.map((account) => [account.id, account.type]))
  const differences: Array<unknown> = []
  for (const [end, balances] of Object.entries(expected)) {
    const actual = yield* ledgerBalances(company, end)
    for (const [id, code] of codes) {
      const books = TieoutRules.naturalSign(types.get(id)!) * (actual.get(code) ?? 0)
      const source = balances[id] ?? 0
      if (books !== source) differences.push({ month_end: end, account: code, source_cents: source, books_cents: books })
    }
  }
  return differences
})

const attempt = Effect.fn("Import.attempt")(function*(
  company: string,
  bundle: TieoutRules.Bundle,
  asOf: string,
  label: string,
  expected: TieoutRules.Tieout["balances"]
) {
  const request = yield* RequestContext
  const result = TieoutRules.tieout(bundle, asOf)
  const open = bundle.open ?? []
  const codes = yield* createAccounts(company, bundle.accounts, open.length > 0, request.now)
  let entries = 0
  for (const txn of result.resolved) {
    const prepared = yield* JournalEntryStore.prepare({
      date: txn.date,
      memo: `Imported from ${label}: ${txn.type} ${txn.ref ?? txn.id}`.slice(0, 200),
      lines: txn.lines.map((line) => ({
        account: codes.get(line.account)!,
        ...(line.cents > 0 ? { debit_cents: line.cents } : { credit_cents: -line.cents })
      }))
    })
    yield* JournalEntryStore.post(prepared, { sourceKind: "migration_import" })
    entries++
  }
  const contacts = yield* OpenItems.createContacts(company, bundle, request.now)
  const clearing = codes.get(clearingId)
  codes.delete(clearingId)
  if (clearing !== undefined) {
    entries += yield* OpenItems.carry({ bundle, asOf, codes, balances: expected[asOf] ?? {}, clearing, contacts, label })
  }
  const differences = yield* compare(company, bundle, codes, expected)
  // The clearing account ends at zero when the open documents carry exactly what the history left in AR and AP.
  const cleared = clearing === undefined ? 0 : (yield* ledgerBalances(company, asOf)).get(clearing) ?? 0
  if (cleared !== 0) differences.push({ month_end: asOf, account: clearing, source_cents: 0, books_cents: cleared })
  if (differences.length > 0) return yield* Effect.fail(new Mismatch(differences, entries))
  return entries
})

/** Imports a connection's extraction; PASS keeps everything, FAIL keeps only the failed attempt's record. */
export const run = Effect.fn("Import.run")(function*(company: string, connection: Record<string, unknown>, label: string) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const id = Row.int(connection.id)
  const tieout = connection.tieout === null ? null : Row.json<TieoutRules.Tieout>(connection.tieout)
  if (tieout === null) return yield* Effect.fail(ApiError.fail("bundle_not_ready", "The extraction has not finished yet."))
  if (!tieout.passed) return yield* Effect.fail(ApiError.fail("tieout_failed", "The extraction's tie-out did not pass: nothing can be imported from it."))
  const passed = yield* sql<{ id: unknown }>`SELECT id FROM migration_imports WHERE company_id = ${company} AND connection_id = ${id}
    AND result = 'PASS'`.pipe(Effect.orDie)
  if (passed.length > 0) return yield* Effect.fail(ApiError.fail("migration_already_imported", "This extraction is already imported."))
  const posted = yield* sql<{ id: unknown }>`SELECT id FROM journal_entries WHERE company_id = ${company} LIMIT 1`.pipe(Effect.orDie)
  if (posted.length > 0) return yield* Effect.fail(ApiError.fail("books_not_empty", "Imports go into empty books: this company already has entries."))
  const bundle = yield* MigrationStore.bundle(company, id)
  const events: Array<Outbox.PendingEvent> = []
  const outcome = yield* sql.withTransaction(attempt(company, bundle, Row.date(connection.as_of), label, tieout.balances).pipe(
    Effect.provideService(Outbox.Pending, events)
  )).pipe(
    Effect.map((entries) => ({ result: "PASS" as const, entries, differences: [] as ReadonlyArray<unknown> })),
    Effect.catch((error: Mismatch | LedgerError | unknown) =>
      error instanceof Mismatch
        ? Effect.succeed({ result: "FAIL" as const, entries: error.entries, differences: error.differences.slice(0, 200) })
        : Effect.succeed({ result: "FAIL" as const, entries: 0, differences: [{ error: String((error as LedgerError).message ?? error) }] }))
  )
  if (outcome.result === "PASS") {
    const outer = yield* Effect.serviceOption(Outbox.Pending)
    if (Option.isSome(outer)) outer.value.push(...events)
    else yield* Effect.forEach(events, (event) => Outbox.emit(event.event_type, JSON.parse(event.payload)).pipe(Effect.orDie), { discard: true })
  }
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO migration_imports ${sql.insert({
    company_id: company,
    connection_id: id,
    source: String(connection.source),
    status: outcome.result === "PASS" ? "imported" : "failed",
    result: outcome.result,
    entries: outcome.result === "PASS" ? outcome.entries : 0,
    differences: JSON.stringify(outcome.differences),
    created_by: Actor.reference(request.actor),
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  const summary = MigrationStore.importSummary(rows[0]!)
  return {
    status: 201,
    body: summary,
    audit: {
      targetType: "migration_import",
      targetId: summary.id,
      details: { imported_history: true, source: String(connection.source), result: summary.result, entries: summary.entries }
    }
  }
})
