import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Banking, Limits } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { addDays, addMonthsClamped } from "../../kernel/values/Calendar.ts"
import { Aggregator, AggregatorFailure } from "../../ports/Aggregator.ts"
import { TokenSealer } from "../../ports/TokenSealer.ts"
import { Entitlements } from "../../billing/index.ts"
import * as BankFeedRules from "./BankFeedRules.ts"
import * as FeedSync from "./FeedSync.ts"

/**
 * Bank feeds' reads and writes shared by their operations: the two ports (or the 503 of a
 * deployment without them), a feed's row and its accounts as the API shows them, and a sync whose
 * login or aggregator failure is recorded on the feed.
 */

type BankFeed = typeof Banking.Records.BankFeed.Type

const notConfigured = () => ApiError.fail("bank_feeds_not_configured", "Bank feeds are not configured on this deployment.")

/** The two ports, or the 503 that says this deployment has no bank feeds (their unconfigured layers). */
export const ports = Effect.gen(function*() {
  const aggregator = yield* Aggregator
  const sealer = yield* TokenSealer
  if (!aggregator.configured || !sealer.configured) return yield* Effect.fail(notConfigured())
  return { aggregator, sealer }
})

export const configured = Effect.map(Effect.all([Aggregator, TokenSealer]), ([aggregator, sealer]) => aggregator.configured && sealer.configured)

export const badGateway = (failure: AggregatorFailure) =>
  failure.code === "not_configured"
    ? notConfigured()
    : ApiError.fail("bad_gateway", `The bank-feed aggregator failed: ${failure.message}`, { code: failure.code })

export const loadFeed = Effect.fn("BankFeedStore.loadFeed")(function*(id: number, lock: boolean) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM bank_feeds WHERE company_id = ${companyId} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("bank feed"))
  return rows[0]
})

export const present = Effect.fn("BankFeedStore.present")(function*(rows: ReadonlyArray<Record<string, unknown>>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  if (rows.length === 0) return [] as Array<BankFeed>
  const accounts = yield* sql<Record<string, unknown>>`SELECT * FROM bank_feed_accounts WHERE company_id = ${companyId}
    AND bank_feed_id IN ${sql.in(rows.map((row) => Row.int(row.id)))} ORDER BY account`.pipe(Effect.orDie)
  return rows.map((row): BankFeed => ({
    id: Row.int(row.id),
    institution: row.institution === null ? null : String(row.institution),
    status: row.status as BankFeed["status"],
    include_pending: row.include_pending === true,
    last_sync_at: Row.isoOrNull(row.last_sync_at),
    last_error: row.last_error === null ? null : String(row.last_error),
    accounts: accounts.filter((account) => Row.int(account.bank_feed_id) === Row.int(row.id)).map((account) => ({
      account: String(account.account),
      name: String(account.name),
      mask: account.mask === null ? null : String(account.mask),
      kind: String(account.kind),
      bank_account_id: Row.intOrNull(account.bank_account_id),
      import_from: account.import_from === null ? null : Row.date(account.import_from),
      linked_at: Row.isoOrNull(account.linked_at)
    })),
    created_at: Row.iso(row.created_at)
  }))
})

export const presentOne = (row: Record<string, unknown>) => Effect.map(present([row]), (feeds) => feeds[0]!)

/** Refreshes the feed's account list from the aggregator (names and masks change; links stay). */
export const refreshAccounts = Effect.fn("BankFeedStore.refreshAccounts")(function*(
  feedId: number,
  accounts: ReadonlyArray<{ readonly accountId: string; readonly name: string; readonly mask: string | null; readonly kind: string }>
) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  for (const account of accounts) {
    yield* sql`INSERT INTO bank_feed_accounts ${sql.insert({
      company_id: companyId,
      bank_feed_id: feedId,
      account: account.accountId,
      name: account.name,
      mask: account.mask,
      kind: account.kind
    })} ON CONFLICT (company_id, bank_feed_id, account) DO UPDATE SET name = excluded.name, mask = excluded.mask,
      kind = excluded.kind`.pipe(Effect.orDie)
  }
})

/** Opens the access token and syncs; a login or aggregator failure is recorded on the feed and reported. */
export const syncFeed = Effect.fn("BankFeedStore.syncFeed")(function*(feed: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const { aggregator, sealer } = yield* ports
  const feedId = Row.int(feed.id)
  const accessToken = yield* sealer.open(String(feed.sealed_access_token), BankFeedRules.boundTo(companyId, feedId))
  const outcome = yield* Effect.result(FeedSync.run(feed, aggregator, accessToken))
  if (outcome._tag === "Success") return outcome.success
  const failure = outcome.failure
  if (!(failure instanceof AggregatorFailure)) return yield* Effect.fail(failure)
  const status = failure.code === "login_required" ? "login_required" : "error"
  yield* sql`UPDATE bank_feeds SET status = ${status}, last_error = ${failure.message} WHERE company_id = ${companyId}
    AND id = ${feedId}`.pipe(Effect.orDie)
  return {
    bank_feed_id: feedId,
    status,
    added: 0,
    updated: 0,
    removed: 0,
    duplicates: 0,
    flagged_for_review: 0,
    message: status === "login_required"
      ? "The bank needs you to log in again: reconnect the feed (link token with bank_feed_id), then call reconnected."
      : `The aggregator failed (${failure.message}); try again later or reconnect.`
  } as typeof Banking.Records.SyncResult.Type
})

/** A feed account may be linked only within the plan's limit (`feed_account_limit`). */
export const requireLinkPlace = Effect.fn("BankFeedStore.requireLinkPlace")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  // Lock the company row so two links at once cannot both take the plan's last place.
  const company = yield* sql<{ plan: string }>`SELECT plan FROM companies WHERE company_id = ${companyId} FOR UPDATE`.pipe(Effect.orDie)
  // Without billing (no processor) no plan limits feed accounts (ADR 2000).
  const limit = yield* Entitlements.feedAccountsLimit(BankFeedRules.linkedAccountsLimit(company[0]!.plan))
  const linkedCount = Row.int((yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_feed_accounts
    WHERE company_id = ${companyId} AND bank_account_id IS NOT NULL`.pipe(Effect.orDie))[0]!.n)
  if (limit !== null && linkedCount >= limit) {
    return yield* Effect.fail(ApiError.fail("feed_account_limit", `The ${company[0]!.plan} plan includes ${limit} linked feed accounts; unlink one or change plan.`, {
      plan: company[0]!.plan,
      limit,
      linked: linkedCount
    }))
  }
})

/**
 * Where a newly linked account's feed history starts when the link names no date: the day after
 * its last line from a statement file, or the plan's default months back when it has none.
 */
export const defaultImportFrom = Effect.fn("BankFeedStore.defaultImportFrom")(function*(bankAccountId: number) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const last = yield* sql<{ last: unknown }>`SELECT max(line_date) AS last FROM bank_lines WHERE company_id = ${companyId}
    AND bank_account_id = ${bankAccountId} AND source = 'file'`.pipe(Effect.orDie)
  return last[0]?.last === null || last[0]?.last === undefined
    ? addMonthsClamped(request.today, -Limits.feedImportMonthsDefault)
    : addDays(Row.date(last[0].last), 1)
})
