import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Ledger, Limits } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Area from "../pipeline/Area.ts"
import * as AccountProtections from "./accounts/AccountProtections.ts"
import * as Accounts from "./accounts/Accounts.ts"
import * as AccountStoreRows from "./accounts/AccountStore.ts"
import * as Charts from "./accounts/Charts.ts"
import * as Classes from "./accounts/Classes.ts"
import * as Periods from "./periods/Periods.ts"
import * as JournalBatch from "./posting/JournalBatch.ts"
import * as JournalEntries from "./posting/JournalEntries.ts"
import * as Proposals from "./proposals/Proposals.ts"
import * as Setup from "./Setup.ts"

/**
 * The books: the chart of accounts, periods, journal entries and the proposals of the governed
 * path. The ledger imports no other area: what others post goes through `Governed`, and what they
 * add to the ledger's rules (proposal kinds, account protections) comes from their own `Area`.
 * What other areas may use of the ledger is exported below, and only that.
 *
 * Its folders, each importing only those before it: `accounts/` (the chart, classes, balances),
 * `periods/` (periods, fiscal years, the period of a date), `entries/` (a journal entry's rules,
 * storage and posting policy), `proposals/` (what waits for a person), `posting/` (the governed
 * write path, the journal-entry endpoints and their group commit). Here only this file, the
 * company setup step and the read-only readers, which nothing in the folders imports.
 */
export const area = Area.make({
  name: "ledger",
  operations: Ledger.operations,
  handlers: [...Accounts.handlers, ...Charts.handlers, ...Classes.handlers, ...Periods.handlers, ...JournalEntries.handlers, ...Proposals.handlers],
  proposalKinds: { journal_entry: JournalEntries.proposalKind },
  protections: AccountProtections.checks,
  setupSteps: [Setup.step],
  batchWriters: { proposeJournalEntry: JournalBatch.writer },
  events: Ledger.events
})

export * as AccountStore from "./accounts/AccountStore.ts"
export * as ControlAccountRules from "./entries/ControlAccountRules.ts"
/** The chart and hand-posted entries naming contacts, read only, for tax mapping and the 1099 forms. */
export * as LedgerReaders from "./Readers.ts"
export * as FiscalYear from "./periods/FiscalYear.ts"
export * as Governed from "./posting/Governed.ts"
export * as JournalEntryRules from "./entries/JournalEntryRules.ts"
export * as JournalEntryStore from "./entries/JournalEntryStore.ts"

/** An account another area adds to the chart (a connection's clearing account, an imported chart). */
export interface NewAccount {
  readonly code: string
  readonly name: string
  readonly type: "asset" | "liability" | "equity" | "income" | "expense"
  readonly subtype?: string | null | undefined
  readonly control?: "ar" | "ap" | null | undefined
}

/**
 * Adds accounts to a company's chart for another area, under the chart's lock and its size limit,
 * so the ledger stays the one writer of `accounts`. A code already in the chart is left as it is;
 * the codes added are returned.
 */
export const addAccounts = Effect.fn("Ledger.addAccounts")(function*(companyId: string, accounts: ReadonlyArray<NewAccount>, now: string) {
  if (accounts.length === 0) return [] as ReadonlyArray<string>
  const sql = yield* SqlClient.SqlClient
  yield* Charts.lockChart(companyId)
  const count = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM accounts WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  if (Row.int(count[0]!.count) + accounts.length > Limits.accountsPerCompanyMax) {
    return yield* Effect.fail(ApiError.validationFailed(`A chart has at most ${Limits.accountsPerCompanyMax} accounts.`))
  }
  const rows = yield* sql<{ code: string }>`INSERT INTO accounts ${sql.insert(AccountStoreRows.rows(accounts.map((account) => ({
    company_id: companyId,
    code: account.code,
    name: account.name.slice(0, 200),
    type: account.type,
    subtype: account.subtype ?? null,
    control: account.control ?? null,
    created_at: now
  }))))} ON CONFLICT (company_id, code) DO NOTHING RETURNING code`.pipe(Effect.orDie)
  return rows.map((row) => row.code)
})

