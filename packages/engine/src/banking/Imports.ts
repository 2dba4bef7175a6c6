import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking, Limits } from "@ledger/api"
import { isAgent } from "../kernel/Actor.ts"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as BankAccounts from "./BankAccounts.ts"
import * as ImportRules from "./ImportRules.ts"
import * as BankingRows from "./BankingRows.ts"
import * as Reader from "./statement/Reader.ts"
import type { StatementLine, StatementReader } from "./statement/Statement.ts"

/**
 * Statement import (spec 4.5): the file is read a line at a time and written a batch at a time,
 * each batch checked for duplicates with one indexed query, so memory holds the file's text and
 * one batch however long the statement is. The bank account row is locked for the import, so two
 * imports of one account never race over the same duplicates.
 */

type ParsedLine = typeof Banking.Records.ParsedLine.Type

const textLimit = (text: string | null): string | null => (text === null ? null : text.slice(0, Limits.memoLengthMax))

const unreadable = (error: unknown): ApiError.LedgerError => {
  if (error instanceof Reader.UnreadableStatement) {
    return ApiError.fail("statement_unreadable", `The file cannot be read: ${error.message}.`, {
      line: error.line,
      reason: error.reason
    })
  }
  if (error instanceof Reader.AmbiguousAccount) {
    return ApiError.fail(
      "statement_account_ambiguous",
      "The file holds statements of several accounts: set the bank account's mask to the last digits of the one to import.",
      { accounts: error.accounts }
    )
  }
  return ApiError.fail("statement_unreadable", `The file cannot be read: ${error instanceof Error ? error.message : String(error)}.`, {
    line: null,
    reason: String(error)
  })
}

/** Up to `count` lines from the reader; a reading failure becomes the 422. */
const pull = (reader: StatementReader, count: number) =>
  Effect.try({
    try: () => {
      const lines: Array<StatementLine> = []
      while (lines.length < count) {
        const line = reader.next()
        if (line === null) break
        lines.push(line)
      }
      return lines
    },
    catch: unreadable
  })

export interface Keyed {
  readonly line: StatementLine
  readonly key: string
}

/** The dedupe key of each line, counting identical lines of this file as they come. */
export const keyLines = (lines: ReadonlyArray<StatementLine>, occurrences: ReturnType<typeof ImportRules.occurrenceCounter>) =>
  Effect.forEach(lines, (line) => {
    const statementId = ImportRules.usableStatementId(line.statementId)
    if (statementId !== null) return Effect.succeed({ line, key: ImportRules.statementKey(statementId) })
    return Effect.map(ImportRules.contentKey(line, occurrences(line)), (key) => ({ line, key }))
  })

/** The keys among `keys` that a bank account already has. */
export const existingKeys = Effect.fn("Imports.existingKeys")(function*(bankAccountId: number, keys: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  if (keys.length === 0) return new Set<string>()
  const rows = yield* sql<{ dedupe_key: string }>`SELECT dedupe_key FROM bank_lines WHERE company_id = ${companyId}
    AND bank_account_id = ${bankAccountId} AND dedupe_key IN ${sql.in(Array.from(new Set(keys)))}`.pipe(Effect.orDie)
  return new Set(rows.map((row) => row.dedupe_key))
})

export const handlers = [
  Handler.make(Banking.BankAccounts.importStatement, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const dryRun = body.dry_run === true
      const bank = yield* BankAccounts.load(path.id, dryRun ? "none" : "update")
      const profile = body.csv_profile ?? (bank.csv_profile === null ? null : Row.json<Banking.Records.CsvProfile>(bank.csv_profile))
      const reader = yield* Effect.try({
        try: () =>
          Reader.open({
            format: body.format,
            content: body.content,
            contentEncoding: body.content_encoding ?? "text",
            profile,
            mask: bank.mask === null ? null : String(bank.mask)
          }),
        catch: unreadable
      })

      let importId: number | null = null
      if (!dryRun) {
        const rows = yield* sql<Record<string, unknown>>`INSERT INTO statement_imports ${sql.insert({
          company_id: companyId,
          bank_account_id: path.id,
          format: body.format,
          filename: body.filename ?? null,
          lines_read: 0,
          lines_imported: 0,
          duplicates: 0,
          created_by_type: request.actor.type,
          created_by_id: request.actor.id,
          created_at: request.now
        })} RETURNING id`.pipe(Effect.orDie)
        importId = Row.int(rows[0]!.id)
      }

      const occurrences = ImportRules.occurrenceCounter()
      const seenInFile = new Set<string>()
      const preview: Array<ParsedLine> = []
      let read = 0
      let imported = 0
      let duplicates = 0
      let firstDate: string | null = null
      let lastDate: string | null = null
      // The batch being inserted while the next one is read: PostgreSQL writes one batch while
      // the engine parses the next, instead of each waiting for the other (docs/performance.md).
      let inserting: Fiber.Fiber<{ readonly inserted: number; readonly offered: number }> | null = null
      const settle = Effect.gen(function*() {
        if (inserting === null) return
        const done = yield* Fiber.join(inserting)
        inserting = null
        imported += done.inserted
        duplicates += done.offered - done.inserted
      })
      for (;;) {
        const lines = yield* pull(reader, Limits.importBatchLinesMax)
        if (lines.length === 0) break
        read += lines.length
        if (read > Limits.statementLinesMax) {
          return yield* Effect.fail(ApiError.fail("statement_unreadable", `The file holds more than ${Limits.statementLinesMax} transactions: split it.`, {
            line: lines[lines.length - 1]!.line,
            reason: "too many transactions"
          }))
        }
        const keyed = yield* keyLines(lines, occurrences)
        // A dry run asks which keys exist; a real import lets the unique index answer as it inserts.
        const existing = dryRun ? yield* existingKeys(path.id, keyed.map((item) => item.key)) : new Set<string>()
        const fresh: Array<Keyed> = []
        for (const item of keyed) {
          const duplicate = existing.has(item.key) || seenInFile.has(item.key)
          seenInFile.add(item.key)
          if (duplicate) duplicates++
          else fresh.push(item)
          if (firstDate === null || item.line.date < firstDate) firstDate = item.line.date
          if (lastDate === null || item.line.date > lastDate) lastDate = item.line.date
          if (dryRun && preview.length < Limits.importPreviewLinesMax) {
            preview.push({
              date: item.line.date,
              amount_cents: item.line.amountCents,
              payee: item.line.payee,
              memo: item.line.memo,
              check_number: item.line.checkNumber,
              statement_id: item.line.statementId,
              duplicate
            })
          }
        }
        if (dryRun) {
          imported += fresh.length
          continue
        }
        if (fresh.length === 0) continue
        // The batch travels as one JSON parameter rather than one parameter per value: one short
        // statement to parse and plan whatever the batch's size, and no driver has to guess types.
        const batch = JSON.stringify(fresh.map(({ key, line }) => ({
          line_date: line.date,
          amount_cents: line.amountCents,
          payee: textLimit(line.payee),
          memo: textLimit(line.memo),
          check_number: textLimit(line.checkNumber),
          statement_id: textLimit(line.statementId),
          dedupe_key: key
        })))
        const insert = sql<{ id: unknown }>`INSERT INTO bank_lines (company_id, bank_account_id, line_date, amount_cents,
            payee, memo, check_number, statement_id, dedupe_key, source, import_id, created_at, updated_at)
          SELECT ${companyId}, ${path.id}, line_date, amount_cents, payee, memo, check_number, statement_id, dedupe_key,
            'file', ${importId}, ${request.now}, ${request.now}
          FROM json_to_recordset(${batch}::json) AS batch (line_date date, amount_cents bigint, payee text, memo text,
            check_number text, statement_id text, dedupe_key text)
          ON CONFLICT (company_id, bank_account_id, dedupe_key) DO NOTHING RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => ({ inserted: rows.length, offered: fresh.length }))
        )
        // One batch in flight at a time, in file order, on the transaction's connection.
        yield* settle
        inserting = yield* Effect.forkChild(insert)
        // Let the insert reach the connection before this fiber parses the next batch.
        yield* Effect.yieldNow
      }
      yield* settle

      const statements = reader.statements().map((statement) => ({
        account_id: statement.accountId,
        currency: statement.currency,
        transactions: statement.transactions,
        ledger_balance_cents: statement.ledgerBalanceCents,
        ledger_balance_date: statement.ledgerBalanceDate
      }))
      const statementBalance = statements.length === 1 ? statements[0]!.ledger_balance_cents : null
      let record: typeof Banking.Records.StatementImport.Type | null = null
      if (importId !== null) {
        const rows = yield* sql<Record<string, unknown>>`UPDATE statement_imports SET ${sql.update({
          lines_read: read,
          lines_imported: imported,
          duplicates,
          first_date: firstDate,
          last_date: lastDate,
          statement_balance_cents: statementBalance
        })} WHERE company_id = ${companyId} AND id = ${importId} RETURNING *`.pipe(Effect.orDie)
        record = BankingRows.statementImport(rows[0]!)
      }
      return {
        status: dryRun ? 200 : 201,
        body: {
          dry_run: dryRun,
          import: record,
          lines_read: read,
          lines_imported: imported,
          duplicates,
          statements,
          lines: preview
        },
        audit: {
          targetType: "bank_account",
          targetId: path.id,
          details: {
            import_id: importId,
            format: body.format,
            filename: body.filename ?? null,
            lines_read: read,
            lines_imported: imported,
            duplicates,
            by_agent: isAgent(request.actor)
          }
        }
      }
    }))
] as const
