import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Foundation from "./migrations/0001_foundation.ts"
import * as LedgerTables from "./migrations/0002_ledger.ts"
import * as SalesTables from "./migrations/0003_sales.ts"
import * as BankingTables from "./migrations/0004_banking.ts"
import * as ReportsTables from "./migrations/0005_reports.ts"
import * as PostingPath from "./migrations/0006_posting_path.ts"
import * as GroupCommit from "./migrations/0007_group_commit.ts"
import * as StoredAnswers from "./migrations/0008_stored_answers.ts"
import * as IdempotencyScope from "./migrations/0009_idempotency_scope.ts"
import * as WebhookEndpoints from "./migrations/0010_webhook_endpoints.ts"
import * as JournalLinesLayout from "./migrations/0011_journal_lines_layout.ts"
import * as CheckedEntriesByStatement from "./migrations/0012_checked_entries_by_statement.ts"
import * as AccountsByCodeBytes from "./migrations/0013_accounts_by_code_bytes.ts"
import * as BatchChartsCurrent from "./migrations/0014_batch_charts_current.ts"
import * as BatchFound from "./migrations/0015_batch_found.ts"
import * as EntriesCheckedWithTheirLines from "./migrations/0016_entries_checked_with_their_lines.ts"

/** Numbered migrations, applied in order at start. A migration is never edited once released. */
export const migrations: ReadonlyArray<{ readonly id: number; readonly name: string; readonly sql: string }> = [
  { id: 1, name: "foundation", sql: Foundation.sql },
  { id: 2, name: "ledger", sql: LedgerTables.sql },
  { id: 3, name: "sales", sql: SalesTables.sql },
  { id: 4, name: "banking", sql: BankingTables.sql },
  { id: 5, name: "reports", sql: ReportsTables.sql },
  { id: 6, name: "posting_path", sql: PostingPath.sql },
  { id: 7, name: "group_commit", sql: GroupCommit.sql },
  { id: 8, name: "stored_answers", sql: StoredAnswers.sql },
  { id: 9, name: "idempotency_scope", sql: IdempotencyScope.sql },
  { id: 10, name: "webhook_endpoints", sql: WebhookEndpoints.sql },
  { id: 11, name: "journal_lines_layout", sql: JournalLinesLayout.sql },
  { id: 12, name: "checked_entries_by_statement", sql: CheckedEntriesByStatement.sql },
  { id: 13, name: "accounts_by_code_bytes", sql: AccountsByCodeBytes.sql },
  { id: 14, name: "batch_charts_current", sql: BatchChartsCurrent.sql },
  { id: 15, name: "batch_found", sql: BatchFound.sql },
  { id: 16, name: "entries_checked_with_their_lines", sql: EntriesCheckedWithTheirLines.sql }
]

/**
 * Splits a migration into statements, since the extended query protocol takes one at a time.
 * Semicolons inside dollar-quoted bodies (functions) do not end a statement.
 */
export const splitStatements = (text: string): ReadonlyArray<string> => {
  const statements: Array<string> = []
  let current = ""
  let inDollarQuote = false
  for (let index = 0; index < text.length; index++) {
    if (text.startsWith("$$", index)) {
      inDollarQuote = !inDollarQuote
      current += "$$"
      index++
      continue
    }
    const character = text[index]!
    if (character === "-" && text[index + 1] === "-" && !inDollarQuote) {
      const end = text.indexOf("\n", index)
      index = end === -1 ? text.length : end
      current += "\n"
      continue
    }
    if (character === ";" && !inDollarQuote) {
      if (current.trim() !== "") statements.push(current.trim())
      current = ""
      continue
    }
    current += character
  }
  if (current.trim() !== "") statements.push(current.trim())
  return statements
}

/** An arbitrary constant: the advisory lock that keeps two replicas from migrating at once. */
const migrationLockId = 7_413_001

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock so
 * that replicas starting together migrate once.
 */
export const run = Effect.fn("Migrations.run")(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(${migrationLockId})`
    yield* sql`CREATE TABLE IF NOT EXISTS ledger_migrations (
      id int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`
    const rows = yield* sql<{ id: number }>`SELECT id FROM ledger_migrations`
    const applied = new Set(rows.map((row) => Number(row.id)))
    // A migration with no SQL yet is an area still being written: it is not recorded as applied.
    const pending = migrations.filter((migration) => !applied.has(migration.id) && migration.sql.trim() !== "")
    for (const migration of pending) {
      for (const statement of splitStatements(migration.sql)) {
        yield* sql.unsafe(statement)
      }
      yield* sql`INSERT INTO ledger_migrations (id, name) VALUES (${migration.id}, ${migration.name})`
    }
    return pending.map((migration) => migration.id)
  }))
})
