import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { type ApiError, Banking, Limits } from "@ledger/api"
import { isAgent, reference } from "../kernel/Actor.ts"
import { EngineInfo } from "../kernel/EngineInfo.ts"
import { Faults } from "../kernel/Faults.ts"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as BankAccounts from "./accounts/BankAccounts.ts"
import * as ImportRules from "./ImportRules.ts"
import * as BankingRows from "./common/BankingRows.ts"
import * as Reading from "./statement/ImportReading.ts"
import * as Writes from "./statement/ImportWrites.ts"
import type * as Reader from "./statement/Reader.ts"
import type { StatementLine, StatementReader } from "./statement/Statement.ts"

/**
 * Statement import (spec 4.5): the file is read a chunk of lines at a time and its lines written
 * a batch at a time, each batch in a short transaction of its own with the import record's
 * progress (`importing`, its counts so far), so other requests get the database between batches
 * (PGlite's one connection above all). The last batch commits with the request's answer: its
 * audit event and idempotency record. A retry under the same key after a crash goes on from the
 * last committed batch (docs/decisions/0408). A dry run writes nothing and asks for duplicates a
 * batch at a time, outside any transaction.
 */

type ParsedLine = typeof Banking.Records.ParsedLine.Type
type Body = typeof Banking.BankAccounts.importStatement.body.Type

export { importChunkLines, linesBound } from "./statement/ImportReading.ts"
export type Keyed = Writes.Keyed

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

/**
 * Lines a batch writes in one short transaction, by store. On PostgreSQL, 2,000
 * (Limits.importBatchLinesMax): other requests run on other connections, and smaller batches only
 * make the import slower. On embedded PGlite the database works on the server's own thread, so a
 * batch holds every request for its length: 500 (Limits.importBatchLinesEmbeddedMax) took the
 * p99 of other requests during a 100,000-line import from 94 ms to 37-52 ms, idle 2-core machine,
 * for an import about a fifth slower (docs/decisions/0408).
 */
export const importWriteBatchLines = (storage: "postgresql" | "pglite"): number =>
  storage === "pglite" ? Limits.importBatchLinesEmbeddedMax : Limits.importBatchLinesMax

/**
 * One pass over the file's lines, a batch at a time: each line keyed, marked when an earlier line
 * of the file had its key, and the statement's first and last dates kept.
 */
const scanner = (reader: StatementReader, batchLines: number) => {
  const occurrences = ImportRules.occurrenceCounter()
  const seen = new Set<string>()
  const state = { read: 0, firstDate: null as string | null, lastDate: null as string | null }
  const next = Effect.gen(function*() {
    const lines = yield* Reading.pullBatch(reader, batchLines, state.read)
    const readBefore = state.read
    state.read += lines.length
    if (state.read > Limits.statementLinesMax) return yield* Effect.fail(Reading.tooManyLines(lines[lines.length - 1]!.line, state.read))
    const keyed = yield* keyLines(lines, occurrences)
    const marked = keyed.map((item) => {
      const again = seen.has(item.key)
      seen.add(item.key)
      if (state.firstDate === null || item.line.date < state.firstDate) state.firstDate = item.line.date
      if (state.lastDate === null || item.line.date > state.lastDate) state.lastDate = item.line.date
      return { ...item, again }
    })
    return { readBefore, marked }
  })
  return { next, state }
}

const statementsOf = (reader: StatementReader) =>
  reader.statements().map((statement) => ({
    account_id: statement.accountId,
    currency: statement.currency,
    transactions: statement.transactions,
    ledger_balance_cents: statement.ledgerBalanceCents,
    ledger_balance_date: statement.ledgerBalanceDate
  }))

/** The answer and its audit note, alike for an import and a dry run. */
const answer = (
  body: Body,
  bankAccountId: number,
  record: typeof Banking.Records.StatementImport.Type | null,
  counts: { readonly read: number; readonly imported: number; readonly duplicates: number },
  reader: StatementReader,
  preview: ReadonlyArray<ParsedLine>
) =>
  Effect.map(RequestContext, (request): Handler.Result => ({
    status: record === null ? 200 : 201,
    body: {
      dry_run: record === null,
      import: record,
      lines_read: counts.read,
      lines_imported: counts.imported,
      duplicates: counts.duplicates,
      statements: statementsOf(reader),
      lines: preview
    },
    audit: {
      targetType: "bank_account",
      targetId: bankAccountId,
      details: {
        import_id: record?.id ?? null,
        format: body.format,
        filename: body.filename ?? null,
        lines_read: counts.read,
        lines_imported: counts.imported,
        duplicates: counts.duplicates,
        by_agent: isAgent(request.actor)
      }
    }
  }))

/**
 * The file as one character per byte (what the cheap line bound counts: newlines and ASCII tags),
 * with the web's `atob` so the engine needs no Node API. Content that is not base64 bounds at 0:
 * the reader refuses it with its own 422.
 */
const boundText = (body: Body): string => {
  if (body.content_encoding !== "base64") return body.content
  try {
    return atob(body.content.replace(/\s/gu, "").replace(/-/gu, "+").replace(/_/gu, "/"))
  } catch {
    return ""
  }
}

/**
 * A dry run: the file read a batch at a time, each batch's duplicates asked for in one query
 * outside any transaction, so the database is free between batches. Its last step only answers.
 */
const dryRun = Effect.fn("Imports.dryRun")(function*(bankAccountId: number, body: Body, source: Reader.Source) {
  // A file whose cheap bound passes the limit is counted first: refused before any query.
  if (Reading.linesBound(body.format, boundText(body)) > Limits.statementLinesMax) yield* Reading.countTransactions(source)
  const reader = yield* Reading.open(source)
  const scan = scanner(reader, importWriteBatchLines((yield* EngineInfo).storage))
  const preview: Array<ParsedLine> = []
  let duplicates = 0
  for (;;) {
    const { marked } = yield* scan.next
    if (marked.length === 0) break
    const existing = yield* existingKeys(bankAccountId, marked.map((item) => item.key))
    for (const item of marked) {
      const duplicate = item.again || existing.has(item.key)
      if (duplicate) duplicates++
      if (preview.length < Limits.importPreviewLinesMax) {
        const { line } = item
        preview.push({
          date: line.date,
          amount_cents: line.amountCents,
          payee: line.payee,
          memo: line.memo,
          check_number: line.checkNumber,
          statement_id: line.statementId,
          duplicate
        })
      }
    }
  }
  const counts = { read: scan.state.read, imported: scan.state.read - duplicates, duplicates }
  return yield* answer(body, bankAccountId, null, counts, reader, preview)
})

/** Waits for a batch's commit; then a crash test may kill the process there (kernel/Faults.ts). */
const committed = (writing: Fiber.Fiber<void, ApiError.LedgerError>) =>
  Effect.andThen(Fiber.join(writing), Effect.flatMap(Faults, (points) => points.betweenImportBatches))

/**
 * An import's steps: the file read through once (a file that cannot be read is refused before
 * anything is written), its record begun or found again, then every batch but the last committed
 * on its own, one in flight while the next is read; answers the last step, which writes the last
 * batch and finishes the record in the request's transaction.
 */
const importSteps = Effect.fn("Imports.importSteps")(function*(bankAccountId: number, body: Body, source: Reader.Source) {
  const request = yield* RequestContext
  const linesTotal = yield* Reading.countTransactions(source)
  const claim = request.idempotencyKey === null ? null : Writes.resumeKey([
    reference(request.actor), request.idempotencyKey, bankAccountId, body.format, body.filename ?? null,
    body.content_encoding ?? "text", body.csv_profile ?? null, yield* Reading.contentDigest(body.content)
  ])
  const progress = yield* Writes.begin({ bankAccountId, format: body.format, filename: body.filename ?? null, linesTotal, resumeKey: claim })
  const reader = yield* Reading.open(source)
  const scan = scanner(reader, importWriteBatchLines((yield* EngineInfo).storage))
  let pending: Writes.Batch | null = null
  let writing: Fiber.Fiber<void, ApiError.LedgerError> | null = null
  for (;;) {
    const { readBefore, marked } = yield* scan.next
    if (marked.length === 0) break
    // Lines an earlier run of this request committed are keyed again (the file's own duplicates
    // count on them) but not written.
    const from = Math.max(readBefore, progress.linesRead)
    if (scan.state.read <= from) continue
    const fresh = marked.slice(from - readBefore).filter((item) => !item.again)
    if (pending !== null) {
      if (writing !== null) yield* committed(writing)
      writing = yield* Effect.forkChild(Writes.commit(progress.id, bankAccountId, pending))
      // Let the write reach the database before this fiber reads the next batch.
      yield* Effect.yieldNow
    }
    pending = { readBefore: from, readAfter: scan.state.read, fresh }
  }
  if (writing !== null) yield* committed(writing)
  const last: Writes.Batch = pending ?? { readBefore: scan.state.read, readAfter: scan.state.read, fresh: [] }
  const statements = statementsOf(reader)
  const finish: Writes.Finish = {
    firstDate: scan.state.firstDate,
    lastDate: scan.state.lastDate,
    statementBalanceCents: statements.length === 1 ? statements[0]!.ledger_balance_cents : null
  }
  return Effect.gen(function*() {
    const record = BankingRows.statementImport(yield* Writes.write(progress.id, bankAccountId, last, finish))
    const counts = { read: record.lines_read, imported: record.lines_imported, duplicates: record.duplicates }
    return yield* answer(body, bankAccountId, record, counts, reader, [])
  })
})

export const handlers = [
  Handler.makeInSteps(Banking.BankAccounts.importStatement, ({ path, body }) =>
    Effect.gen(function*() {
      const bank = yield* BankAccounts.load(path.id)
      const profile = body.csv_profile ?? (bank.csv_profile === null ? null : Row.json<Banking.Records.CsvProfile>(bank.csv_profile))
      const source: Reader.Source = {
        format: body.format,
        content: body.content,
        contentEncoding: body.content_encoding ?? "text",
        profile,
        mask: bank.mask === null ? null : String(bank.mask)
      }
      if (body.dry_run === true) return Effect.succeed(yield* dryRun(path.id, body, source))
      return yield* importSteps(path.id, body, source)
    }))
] as const
