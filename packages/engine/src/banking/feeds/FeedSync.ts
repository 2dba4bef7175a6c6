import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Banking } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext, type RequestInfo } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { type Aggregator, AggregatorFailure, type FeedTransaction, type SyncPage } from "../../ports/Aggregator.ts"
import * as AutoMatch from "../lines/MatchingRules.ts"
import * as Store from "../lines/BankLineStore.ts"

/**
 * One bank-feed sync (spec 4.5): pulls added, modified and removed transactions since the feed's
 * cursor and applies them to the linked bank accounts. Nothing posts: a new transaction becomes an
 * unmatched line; a change to a line nobody has acted on updates it; a removal withdraws it; a
 * change or removal of a line already matched, categorized or proposed is flagged for review
 * instead, so a ledger entry is never posted twice nor silently changed. A transaction already
 * imported from a file (same amount, date within a few days, not yet claimed by the feed) is
 * linked to that line rather than imported again.
 */

type SyncResult = typeof Banking.Records.SyncResult.Type
type Counts = { -readonly [K in "added" | "updated" | "removed" | "duplicates" | "flagged_for_review"]: number }

/** How far apart a file's date and the feed's date of one transaction may be. */
const fileMatchWindowDays = 3

interface Linked {
  readonly bankAccountId: number
  readonly importFrom: string | null
}

/** One sync under way: the feed's linked accounts, the imports it opened and what it did so far. */
interface Sync {
  readonly sql: SqlClient.SqlClient
  readonly request: RequestInfo
  readonly companyId: string
  readonly feedId: number
  readonly includePending: boolean
  /** Feed account id -> the bank account it is linked to. */
  readonly linked: ReadonlyMap<string, Linked>
  /** Bank account id -> the feed import its new lines go under, opened with its first new line. */
  readonly importIds: Map<number, number>
  readonly result: Counts
}

const feedKey = (transactionId: string): string => `feed:${transactionId}`

/** The feed's accounts linked to bank accounts, by the aggregator's account id. */
const linkedAccounts = (sql: SqlClient.SqlClient, companyId: string, feedId: number) =>
  sql<Record<string, unknown>>`SELECT account, bank_account_id, import_from FROM bank_feed_accounts
    WHERE company_id = ${companyId} AND bank_feed_id = ${feedId} AND bank_account_id IS NOT NULL`.pipe(
    Effect.orDie,
    Effect.map((links) =>
      new Map<string, Linked>(links.map((row) => [String(row.account), {
        bankAccountId: Row.int(row.bank_account_id),
        importFrom: row.import_from === null ? null : Row.date(row.import_from)
      }]))
    )
  )

const importFor = Effect.fn("FeedSync.importFor")(function*(sync: Sync, bankAccountId: number) {
  const { sql, request } = sync
  const known = sync.importIds.get(bankAccountId)
  if (known !== undefined) return known
  const rows = yield* sql<{ id: unknown }>`INSERT INTO statement_imports ${sql.insert({
    company_id: sync.companyId,
    bank_account_id: bankAccountId,
    format: "feed",
    filename: null,
    lines_read: 0,
    lines_imported: 0,
    duplicates: 0,
    created_by_type: request.actor.type,
    created_by_id: request.actor.id,
    created_at: request.now
  })} RETURNING id`.pipe(Effect.orDie)
  const id = Row.int(rows[0]!.id)
  sync.importIds.set(bankAccountId, id)
  return id
})

const lineByTransaction = (sync: Sync, bankAccountId: number, transactionId: string) =>
  sync.sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${sync.companyId} AND bank_account_id = ${bankAccountId}
    AND feed_transaction_id = ${transactionId} FOR UPDATE`.pipe(Effect.orDie, Effect.map((rows) => rows[0]))

const acted = (row: Record<string, unknown>) => !["unmatched", "excluded"].includes(String(row.status))

const flag = (sync: Sync, row: Record<string, unknown>, message: string) =>
  Effect.gen(function*() {
    sync.result.flagged_for_review++
    yield* Store.update(Row.int(row.id), { review: message.slice(0, 1_000) })
  })

/** Brings a line in line with the bank's latest word on its transaction. */
const apply = (sync: Sync, row: Record<string, unknown>, transaction: FeedTransaction) =>
  Effect.gen(function*() {
    const moneyChanged = Row.int(row.amount_cents) !== transaction.amountCents || Row.date(row.line_date) !== transaction.date
    if (acted(row) && moneyChanged) {
      return yield* flag(sync, row, `The bank changed this transaction after it was ${String(row.status)}: ` +
        `${Row.date(row.line_date)} ${Row.int(row.amount_cents)} cents became ${transaction.date} ${transaction.amountCents} cents.`)
    }
    sync.result.updated++
    yield* Store.update(Row.int(row.id), {
      feed_transaction_id: transaction.transactionId,
      dedupe_key: feedKey(transaction.transactionId),
      line_date: transaction.date,
      amount_cents: transaction.amountCents,
      payee: transaction.name,
      memo: transaction.memo,
      pending: transaction.pending,
      withdrawn_at: acted(row) ? row.withdrawn_at : null
    })
  })

/** The same transaction imported from a statement file: claims that line instead of adding one; false when there is none. */
const claimFileLine = (sync: Sync, link: Linked, transaction: FeedTransaction) =>
  Effect.gen(function*() {
    const candidates = yield* sync.sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${sync.companyId}
      AND bank_account_id = ${link.bankAccountId} AND source = 'file' AND feed_transaction_id IS NULL
      AND amount_cents = ${transaction.amountCents} AND withdrawn_at IS NULL
      ORDER BY line_date, id FOR UPDATE`.pipe(Effect.orDie)
    const nearest = candidates
      .map((row) => ({ row, apart: AutoMatch.daysApart(Row.date(row.line_date), transaction.date) }))
      .filter((candidate) => candidate.apart <= fileMatchWindowDays)
      .sort((left, right) => left.apart - right.apart)[0]
    if (nearest === undefined) return false
    sync.result.duplicates++
    yield* Store.update(Row.int(nearest.row.id), { feed_transaction_id: transaction.transactionId })
    return true
  })

/** A new unmatched line, under the feed import of its bank account. */
const insertLine = (sync: Sync, link: Linked, transaction: FeedTransaction) =>
  Effect.gen(function*() {
    const { sql, request } = sync
    const importId = yield* importFor(sync, link.bankAccountId)
    sync.result.added++
    yield* sql`INSERT INTO bank_lines ${sql.insert({
      company_id: sync.companyId,
      bank_account_id: link.bankAccountId,
      line_date: transaction.date,
      amount_cents: transaction.amountCents,
      payee: transaction.name,
      memo: transaction.memo,
      statement_id: null,
      dedupe_key: feedKey(transaction.transactionId),
      source: "feed",
      import_id: importId,
      feed_transaction_id: transaction.transactionId,
      pending: transaction.pending,
      created_at: request.now,
      updated_at: request.now
    })}`.pipe(Effect.orDie)
  })

const add = (sync: Sync, transaction: FeedTransaction) =>
  Effect.gen(function*() {
    const link = sync.linked.get(transaction.accountId)
    if (link === undefined) return
    if (transaction.pending && !sync.includePending) return
    if (link.importFrom !== null && transaction.date < link.importFrom) return
    const existing = yield* lineByTransaction(sync, link.bankAccountId, transaction.transactionId)
    if (existing !== undefined) return yield* apply(sync, existing, transaction)
    if (transaction.pendingTransactionId !== null) {
      const pending = yield* lineByTransaction(sync, link.bankAccountId, transaction.pendingTransactionId)
      if (pending !== undefined) return yield* apply(sync, pending, transaction)
    }
    if (!transaction.pending && (yield* claimFileLine(sync, link, transaction))) return
    yield* insertLine(sync, link, transaction)
  })

const modify = (sync: Sync, transaction: FeedTransaction) =>
  Effect.gen(function*() {
    const link = sync.linked.get(transaction.accountId)
    if (link === undefined) return
    const existing = yield* lineByTransaction(sync, link.bankAccountId, transaction.transactionId)
    if (existing === undefined) return yield* add(sync, transaction)
    if (transaction.pending && !sync.includePending) return
    yield* apply(sync, existing, transaction)
  })

const remove = (sync: Sync, transactionId: string) =>
  Effect.gen(function*() {
    const { sql, companyId } = sync
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${companyId}
      AND feed_transaction_id = ${transactionId} AND withdrawn_at IS NULL
      AND bank_account_id IN (SELECT bank_account_id FROM bank_feed_accounts WHERE company_id = ${companyId}
        AND bank_feed_id = ${sync.feedId} AND bank_account_id IS NOT NULL) FOR UPDATE`.pipe(Effect.orDie)
    for (const row of rows) {
      if (acted(row)) {
        yield* flag(sync, row, `The bank removed this transaction after it was ${String(row.status)}.`)
      } else {
        sync.result.removed++
        yield* Store.update(Row.int(row.id), { withdrawn_at: sync.request.now })
      }
    }
  })

/** Counts each opened import's lines and moves the feed's cursor on. */
const finish = (sync: Sync, cursor: string | null) =>
  Effect.gen(function*() {
    const { sql, companyId } = sync
    for (const [bankAccountId, importId] of sync.importIds) {
      yield* sql`UPDATE statement_imports SET lines_imported = (SELECT count(*) FROM bank_lines
          WHERE company_id = ${companyId} AND import_id = ${importId}),
        lines_read = (SELECT count(*) FROM bank_lines WHERE company_id = ${companyId} AND import_id = ${importId})
        WHERE company_id = ${companyId} AND id = ${importId} AND bank_account_id = ${bankAccountId}`.pipe(Effect.orDie)
    }
    yield* sql`UPDATE bank_feeds SET sync_cursor = ${cursor}, last_sync_at = ${sync.request.now}, status = 'active', last_error = NULL
      WHERE company_id = ${companyId} AND id = ${sync.feedId}`.pipe(Effect.orDie)
  })

/** Pages one sync gathers before applying them; past it, what was gathered is applied and the next sync goes on from there. */
const maxPages = 200
/** Times a run is started again because the item changed under it, before the sync gives up for now. */
const maxRestarts = 3

/**
 * Every page from `start` until the aggregator has no more (or `maxPages`), nothing applied yet: if
 * the item changes while the run pages through it, the aggregator refuses the next page and the
 * whole run must start again from `start` (Plaid: "restart the pagination loop"), so pages applied
 * as they came would be applied twice or against a stale view.
 */
const gather = (aggregator: Aggregator["Service"], accessToken: string, start: string | null) =>
  Effect.gen(function*() {
    const pages: Array<SyncPage> = []
    let cursor = start
    for (let count = 0; count < maxPages; count++) {
      const page = yield* aggregator.sync(accessToken, cursor)
      pages.push(page)
      cursor = page.nextCursor
      if (!page.hasMore) break
    }
    return { pages, cursor }
  })

/** `gather`, started again from its first cursor when the aggregator asks, at most `maxRestarts` times. */
const gatherRestarting = (aggregator: Aggregator["Service"], accessToken: string, start: string | null) =>
  gather(aggregator, accessToken, start).pipe(
    Effect.retry({ times: maxRestarts, while: (failure) => failure.code === "restart_pagination" }),
    Effect.mapError((failure) =>
      failure.code === "restart_pagination"
        ? new AggregatorFailure({ code: "unavailable", message: `the bank's data kept changing during the sync (${failure.message}); try again shortly` })
        : failure
    )
  )

export const run = Effect.fn("FeedSync.run")(function*(
  feed: Record<string, unknown>,
  aggregator: Aggregator["Service"],
  accessToken: string
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const feedId = Row.int(feed.id)
  const sync: Sync = {
    sql,
    request,
    companyId,
    feedId,
    includePending: feed.include_pending === true,
    linked: yield* linkedAccounts(sql, companyId, feedId),
    importIds: new Map(),
    result: { added: 0, updated: 0, removed: 0, duplicates: 0, flagged_for_review: 0 }
  }
  const { pages, cursor } = yield* gatherRestarting(aggregator, accessToken, feed.sync_cursor === null ? null : String(feed.sync_cursor))
  for (const page of pages) {
    // Removals first, so a pending transaction that posted under a new id is replaced, not duplicated.
    for (const transactionId of page.removed) yield* remove(sync, transactionId)
    for (const transaction of page.added) yield* add(sync, transaction)
    for (const transaction of page.modified) yield* modify(sync, transaction)
  }
  yield* finish(sync, cursor)
  return { bank_feed_id: feedId, status: "active", ...sync.result, message: null } satisfies SyncResult
})
