import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import * as Execution from "../../pipeline/Execution.ts"
import type { StatementLine } from "./Statement.ts"

/**
 * The SQL of a statement import that commits in batches (docs/decisions/0408): its record, made
 * `importing` (or found again by a retry of the same request), and each batch of lines written
 * together with the record's progress in one statement. The record's `lines_read` is how far into
 * the file the committed batches reach: each write names the position it starts from and is
 * refused when the record says otherwise, so two runs of one request never write one batch twice.
 */

/** A line with its dedupe key (ImportRules). */
export interface Keyed {
  readonly line: StatementLine
  readonly key: string
}

/** How far an import's committed batches reach, and their counts. */
export interface Progress {
  readonly id: number
  readonly linesRead: number
  readonly linesImported: number
  readonly duplicates: number
}

/** One batch: the file's lines from `readBefore` to `readAfter`, of which `fresh` are new to this file. */
export interface Batch {
  readonly readBefore: number
  readonly readAfter: number
  readonly fresh: ReadonlyArray<Keyed>
}

/** What the last batch also writes: the record's dates and balance, and `imported`. */
export interface Finish {
  readonly firstDate: string | null
  readonly lastDate: string | null
  readonly statementBalanceCents: number | null
}

const textLimit = (text: string | null): string | null => (text === null ? null : text.slice(0, Limits.memoLengthMax))

/** Another run of the same request is writing this import: the caller retries and gets its answer. */
const inProgress = () =>
  ApiError.fail("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.")

/**
 * The claim of an import on its request: the principal, the Idempotency-Key, the bank account
 * and the request's body (the file by its digest), hashed.
 */
export const resumeKey = (parts: ReadonlyArray<unknown>): string => Secret.sha256Hex(JSON.stringify(parts))

const progressOf = (row: Record<string, unknown>): Progress => ({
  id: Row.int(row.id),
  linesRead: Row.int(row.lines_read),
  linesImported: Row.int(row.lines_imported),
  duplicates: Row.int(row.duplicates)
})

/**
 * The import's record, `importing`, committed at once: a new one, or the unfinished one a
 * retry of the same request (`resumeKey`) finds, to go on from where its batches reached.
 */
export const begin = Effect.fn("ImportWrites.begin")(function*(input: {
  readonly bankAccountId: number
  readonly format: string
  readonly filename: string | null
  readonly linesTotal: number
  readonly resumeKey: string | null
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const made = yield* sql<Record<string, unknown>>`INSERT INTO statement_imports ${sql.insert({
    company_id: companyId,
    bank_account_id: input.bankAccountId,
    format: input.format,
    filename: input.filename,
    lines_read: 0,
    lines_imported: 0,
    duplicates: 0,
    status: "importing",
    lines_total: input.linesTotal,
    resume_key: input.resumeKey,
    created_by_type: request.actor.type,
    created_by_id: request.actor.id,
    created_at: request.now
  })} ON CONFLICT (company_id, resume_key) WHERE status = 'importing' AND resume_key IS NOT NULL DO NOTHING
    RETURNING id, lines_read, lines_imported, duplicates`.pipe(Effect.orDie)
  if (made[0] !== undefined) return progressOf(made[0])
  const found = yield* sql<Record<string, unknown>>`SELECT id, lines_read, lines_imported, duplicates FROM statement_imports
    WHERE company_id = ${companyId} AND resume_key = ${input.resumeKey} AND status = 'importing'
      AND bank_account_id = ${input.bankAccountId}`.pipe(Effect.orDie)
  // Finished between the two statements by another run of this request: its answer is recorded.
  if (found[0] === undefined) return yield* Effect.fail(inProgress())
  return progressOf(found[0])
})

/**
 * Writes one batch and the record's progress, in the caller's transaction: the bank account's row
 * is held first, so the batches of two imports of one account take turns (and never deadlock
 * over the same keys); then one statement inserts the lines (a key the account has is a
 * duplicate) and moves the record from `readBefore` to `readAfter`. `finish` makes it the last
 * batch. Answers the record's row.
 */
export const write = Effect.fn("ImportWrites.write")(function*(
  importId: number,
  bankAccountId: number,
  batch: Batch,
  finish: Finish | null
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  yield* sql`SELECT 1 FROM bank_accounts WHERE company_id = ${companyId} AND id = ${bankAccountId} FOR UPDATE`.pipe(Effect.orDie)
  // The batch travels as one JSON parameter rather than one parameter per value: one short
  // statement to parse and plan whatever the batch's size, and no driver has to guess types.
  const lines = JSON.stringify(batch.fresh.map(({ key, line }) => ({
    line_date: line.date,
    amount_cents: line.amountCents,
    payee: textLimit(line.payee),
    memo: textLimit(line.memo),
    check_number: textLimit(line.checkNumber),
    statement_id: textLimit(line.statementId),
    dedupe_key: key
  })))
  const finishing = finish === null ? sql`` : sql`, status = 'imported', first_date = ${finish.firstDate}::date,
    last_date = ${finish.lastDate}::date, statement_balance_cents = ${finish.statementBalanceCents}::bigint`
  const rows = yield* sql<Record<string, unknown>>`WITH inserted AS (
      INSERT INTO bank_lines (company_id, bank_account_id, line_date, amount_cents, payee, memo, check_number,
        statement_id, dedupe_key, source, import_id, created_at, updated_at)
      SELECT ${companyId}, ${bankAccountId}, line_date, amount_cents, payee, memo, check_number, statement_id, dedupe_key,
        'file', ${importId}, ${request.now}, ${request.now}
      FROM json_to_recordset(${lines}::json) AS batch (line_date date, amount_cents bigint, payee text, memo text,
        check_number text, statement_id text, dedupe_key text)
      ON CONFLICT (company_id, bank_account_id, dedupe_key) DO NOTHING RETURNING 1
    ), written AS (SELECT count(*)::int AS lines FROM inserted)
    UPDATE statement_imports SET lines_read = ${batch.readAfter}::int,
      lines_imported = lines_imported + written.lines,
      duplicates = duplicates + ${batch.readAfter - batch.readBefore}::int - written.lines ${finishing}
    FROM written
    WHERE company_id = ${companyId} AND id = ${importId} AND status = 'importing' AND lines_read = ${batch.readBefore}::int
    RETURNING statement_imports.*`.pipe(Effect.orDie)
  // Another run of this request wrote this batch first: the insert above rolls back with this refusal.
  if (rows[0] === undefined) return yield* Effect.fail(inProgress())
  return rows[0]
})

/**
 * `write` of a batch that is not the last, in a short transaction of its own. A deadlock or
 * serialization failure rolled the whole batch back, and the batch starts from the position the
 * record still holds, so it is run again in place as the pipeline runs any write's transaction
 * again (`Execution.retryingTransient`), rather than failing the import for its retry to resume.
 */
export const commit = Effect.fn("ImportWrites.commit")(function*(importId: number, bankAccountId: number, batch: Batch) {
  const sql = yield* SqlClient.SqlClient
  yield* Execution.retryingTransient(sql.withTransaction(write(importId, bankAccountId, batch, null))).pipe(
    Effect.catchTag("SqlError", (error) => Effect.die(error)),
    Effect.catchTag("Contended", (error) =>
      Effect.andThen(Effect.logWarning("An import's batch was contended on every attempt", error.cause), Effect.fail(Execution.contendedError())))
  )
})
