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

/**
 * Lines parsed between two yields to the event loop. Parsing runs at 15 to 55 microseconds a
 * line, so a chunk of 250 holds the loop for about 4 to 15 ms, where a write batch of 2,000
 * (Limits.importBatchLinesMax) held it for up to half a second: other requests are answered
 * between chunks (issue 19 item 8, docs/decisions/0407). Writes stay 2,000 lines a statement:
 * smaller ones made an import on PGlite two to three times slower.
 */
export const importChunkLines = 250

/**
 * Up to `count` lines (a write batch), read `importChunkLines` at a time with a yield between
 * chunks, and never past the limit + 1st line of the file.
 */
const pullBatch = (reader: StatementReader, count: number, readBefore: number) =>
  Effect.gen(function*() {
    const lines: Array<StatementLine> = []
    for (;;) {
      const wanted = Math.min(importChunkLines, count - lines.length, Limits.statementLinesMax + 1 - readBefore - lines.length)
      if (wanted <= 0) return lines
      const chunk = yield* pull(reader, wanted)
      for (const line of chunk) lines.push(line)
      if (chunk.length < wanted) return lines
      yield* Effect.yieldNow
    }
  })

const tooManyLines = (line: number, read: number) =>
  ApiError.fail("statement_unreadable", `The file holds more than ${Limits.statementLinesMax} transactions: split it.`, {
    line,
    reason: "too many transactions",
    lines_read: read
  })

const occurrences = (text: string, pattern: RegExp): number => {
  let count = 0
  pattern.lastIndex = 0
  while (pattern.exec(text) !== null) count++
  return count
}

/** indexOf rather than a regular expression: four times faster over a file's worth of text. */
const characters = (text: string, character: string): number => {
  let count = 0
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++
  return count
}

/**
 * The most transactions the text can hold, counted without parsing or copying it: its line breaks
 * for CSV (LF, or CR for files that use CR alone), its `<STMTTRN>` tags for OFX. Only a file whose
 * bound passes the limit is counted for real. (A file in UTF-16 may show no tag: the write loop's
 * own check still refuses it.)
 */
export const linesBound = (format: "ofx" | "qfx" | "csv", text: string): number =>
  format === "csv"
    ? Math.max(characters(text, "\n"), characters(text, "\r")) + 1
    : occurrences(text, /<stmttrn>/giu)

/**
 * Refuses a file holding more than Limits.statementLinesMax transactions before a line of it is
 * written: it is read in chunks (yielding between them) and refused as the reader passes the
 * limit, so a file of any length is read at most to its limit + 1st transaction.
 */
const refuseTooMany = (open: () => StatementReader) =>
  Effect.gen(function*() {
    const reader = yield* Effect.try({ try: open, catch: unreadable })
    let read = 0
    for (;;) {
      const lines = yield* pull(reader, Math.min(importChunkLines, Limits.statementLinesMax + 1 - read))
      if (lines.length === 0) return
      read += lines.length
      if (read > Limits.statementLinesMax) return yield* Effect.fail(tooManyLines(lines[lines.length - 1]!.line, read))
      yield* Effect.yieldNow
    }
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
      const source: Reader.Source = {
        format: body.format,
        content: body.content,
        contentEncoding: body.content_encoding ?? "text",
        profile,
        mask: bank.mask === null ? null : String(bank.mask)
      }
      // The count limit is checked before anything is written, reading no further than it.
      if (linesBound(body.format, body.content_encoding === "base64" ? Buffer.from(body.content, "base64").toString("latin1") : body.content) > Limits.statementLinesMax) {
        yield* refuseTooMany(() => Reader.open(source))
      }
      const reader = yield* Effect.try({ try: () => Reader.open(source), catch: unreadable })

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
        const lines = yield* pullBatch(reader, Limits.importBatchLinesMax, read)
        if (lines.length === 0) break
        read += lines.length
        if (read > Limits.statementLinesMax) return yield* Effect.fail(tooManyLines(lines[lines.length - 1]!.line, read))
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
