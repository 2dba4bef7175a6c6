import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking, Limits } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { Aggregator, AggregatorFailure } from "../ports/Aggregator.ts"
import * as BankAccounts from "./BankAccounts.ts"
import * as FeedSync from "./FeedSync.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"

/**
 * Bank feeds (spec 4.5): an aggregator connection per bank login, its access token sealed at rest,
 * its accounts linked to bank accounts (within the plan's limit), synced on request. The
 * aggregator and the sealer are ports: a deployment without them answers 503
 * `bank_feeds_not_configured`; a failing aggregator answers 502.
 */

type BankFeed = typeof Banking.Records.BankFeed.Type

const notConfigured = () => ApiError.fail("bank_feeds_not_configured", "Bank feeds are not configured on this deployment.")

/** The two ports, or the 503 that says this deployment has no bank feeds (their unconfigured layers). */
const ports = Effect.gen(function*() {
  const aggregator = yield* Aggregator
  const sealer = yield* TokenSealer
  if (!aggregator.configured || !sealer.configured) return yield* Effect.fail(notConfigured())
  return { aggregator, sealer }
})

const configured = Effect.map(Effect.all([Aggregator, TokenSealer]), ([aggregator, sealer]) => aggregator.configured && sealer.configured)

const badGateway = (failure: AggregatorFailure) =>
  failure.code === "not_configured"
    ? notConfigured()
    : ApiError.fail("bad_gateway", `The bank-feed aggregator failed: ${failure.message}`, { code: failure.code })

/** What a sealed token is bound to: its company and feed, so it opens on no other row. */
const boundTo = (companyId: string, feedId: number): string => `bank_feed:${companyId}:${feedId}`

/** Feed accounts a plan may have linked at once; null is no limit. */
export const linkedAccountsLimit = (plan: string): number | null =>
  (Limits.feedAccountsByPlan as Record<string, number>)[plan] ?? null

const loadFeed = Effect.fn("BankFeeds.loadFeed")(function*(id: number, lock: boolean) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM bank_feeds WHERE company_id = ${companyId} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("bank feed"))
  return rows[0]
})

const present = Effect.fn("BankFeeds.present")(function*(rows: ReadonlyArray<Record<string, unknown>>) {
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

const presentOne = (row: Record<string, unknown>) => Effect.map(present([row]), (feeds) => feeds[0]!)

/** Refreshes the feed's account list from the aggregator (names and masks change; links stay). */
const refreshAccounts = Effect.fn("BankFeeds.refreshAccounts")(function*(
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
const syncFeed = Effect.fn("BankFeeds.syncFeed")(function*(feed: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const { aggregator, sealer } = yield* ports
  const feedId = Row.int(feed.id)
  const accessToken = yield* sealer.open(String(feed.sealed_access_token), boundTo(companyId, feedId))
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

const addMonths = (date: string, months: number): string => {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7)) - 1 + months
  const day = Number(date.slice(8, 10))
  const target = new Date(Date.UTC(year, month, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(day, last))).toISOString().slice(0, 10)
}

const nextDay = (date: string): string =>
  new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + 1)).toISOString().slice(0, 10)

export const handlers = [
  Handler.make(Banking.BankFeeds.listBankFeeds, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM bank_feeds WHERE company_id = ${companyId}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const page = Pagination.page(rows, limit, (row) => Row.int(row.id), (row) => row)
      const company = yield* sql<{ plan: string }>`SELECT plan FROM companies WHERE company_id = ${companyId}`.pipe(Effect.orDie)
      const linked = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_feed_accounts WHERE company_id = ${companyId}
        AND bank_account_id IS NOT NULL`.pipe(Effect.orDie)
      const plan = company[0]!.plan
      return {
        body: {
          ...page,
          data: yield* present(page.data),
          feeds_configured: yield* configured,
          plan,
          linked_accounts: Row.int(linked[0]!.n),
          linked_accounts_limit: linkedAccountsLimit(plan)
        }
      }
    })),

  Handler.make(Banking.BankFeeds.getBankFeed, ({ path }) =>
    Effect.gen(function*() {
      return { body: yield* presentOne(yield* loadFeed(path.id, false)) }
    })),

  Handler.make(Banking.BankFeeds.createBankFeedLinkToken, ({ body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* ports
      let accessToken: string | null = null
      if (body.bank_feed_id !== undefined) {
        const feed = yield* loadFeed(body.bank_feed_id, false)
        accessToken = yield* sealer.open(String(feed.sealed_access_token), boundTo(companyId, body.bank_feed_id))
      }
      const token = yield* aggregator.createLinkToken({
        companyId,
        clientUserId: `${request.actor.type}:${request.actor.id ?? "?"}`,
        accessToken,
        accountSelection: body.account_selection === true
      }).pipe(Effect.mapError(badGateway))
      return {
        body: { link_token: token.linkToken, expires_at: token.expiresAt, bank_feed_id: body.bank_feed_id ?? null },
        audit: {
          targetType: "bank_feed",
          ...(body.bank_feed_id === undefined ? {} : { targetId: body.bank_feed_id }),
          details: { update_mode: accessToken !== null }
        }
      }
    })),

  Handler.make(Banking.BankFeeds.createBankFeed, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* ports
      const exchanged = yield* aggregator.exchangePublicToken(body.public_token).pipe(Effect.mapError(badGateway))
      const accounts = yield* aggregator.accounts(exchanged.accessToken).pipe(Effect.mapError(badGateway))
      const id = Row.int((yield* sql<{ id: unknown }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie))[0]!.id)
      const sealed = yield* sealer.seal(exchanged.accessToken, boundTo(companyId, id))
      yield* sql`INSERT INTO bank_feeds ${sql.insert({
        company_id: companyId,
        id,
        item_id: exchanged.itemId,
        institution: exchanged.institution,
        sealed_access_token: sealed,
        created_at: request.now
      })}`.pipe(Effect.orDie)
      yield* refreshAccounts(id, accounts)
      return {
        body: yield* presentOne(yield* loadFeed(id, false)),
        audit: { targetType: "bank_feed", targetId: id, details: { institution: exchanged.institution, accounts: accounts.length } }
      }
    })),

  Handler.make(Banking.BankFeeds.linkBankFeedAccount, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* ports
      const feed = yield* loadFeed(path.id, true)
      const accessToken = yield* sealer.open(String(feed.sealed_access_token), boundTo(companyId, path.id))
      const accounts = yield* aggregator.accounts(accessToken).pipe(Effect.mapError(badGateway))
      yield* refreshAccounts(path.id, accounts)
      if (!accounts.some((account) => account.accountId === body.account)) {
        return yield* Effect.fail(ApiError.validationFailed("The feed has no such account.", [{ path: ["body", "account"], message: "Unknown feed account" }]))
      }
      if ((body.bank_account_id === undefined) === (body.new_bank_account === undefined)) {
        return yield* Effect.fail(ApiError.validationFailed("Give exactly one of bank_account_id and new_bank_account.", [
          { path: ["body", "bank_account_id"], message: "Exactly one of bank_account_id and new_bank_account" }
        ]))
      }
      const current = yield* sql<Record<string, unknown>>`SELECT * FROM bank_feed_accounts WHERE company_id = ${companyId}
        AND bank_feed_id = ${path.id} AND account = ${body.account} FOR UPDATE`.pipe(Effect.orDie)
      if (current[0]!.bank_account_id !== null) {
        return yield* Effect.fail(ApiError.fail("conflict", "This feed account is already linked: unlink it first.", {
          bank_account_id: Row.int(current[0]!.bank_account_id)
        }))
      }
      // Lock the company row so two links at once cannot both take the plan's last place.
      const company = yield* sql<{ plan: string }>`SELECT plan FROM companies WHERE company_id = ${companyId} FOR UPDATE`.pipe(Effect.orDie)
      const limit = linkedAccountsLimit(company[0]!.plan)
      const linkedCount = Row.int((yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_feed_accounts
        WHERE company_id = ${companyId} AND bank_account_id IS NOT NULL`.pipe(Effect.orDie))[0]!.n)
      if (limit !== null && linkedCount >= limit) {
        return yield* Effect.fail(ApiError.fail("feed_account_limit", `The ${company[0]!.plan} plan includes ${limit} linked feed accounts; unlink one or change plan.`, {
          plan: company[0]!.plan,
          limit,
          linked: linkedCount
        }))
      }
      const bankAccount = body.bank_account_id !== undefined
        ? yield* BankAccounts.one(body.bank_account_id)
        : yield* BankAccounts.create(body.new_bank_account!, ["body", "new_bank_account"])
      if (bankAccount.feed !== null) {
        return yield* Effect.fail(ApiError.validationFailed("That bank account already takes another feed account.", [
          { path: ["body", "bank_account_id"], message: "Already linked to a feed" }
        ]))
      }
      let importFrom = body.import_from ?? null
      if (importFrom === null) {
        const last = yield* sql<{ last: unknown }>`SELECT max(line_date) AS last FROM bank_lines WHERE company_id = ${companyId}
          AND bank_account_id = ${bankAccount.id} AND source = 'file'`.pipe(Effect.orDie)
        importFrom = last[0]?.last === null || last[0]?.last === undefined
          ? addMonths(request.today, -Limits.feedImportMonthsDefault)
          : nextDay(Row.date(last[0].last))
      }
      yield* sql`UPDATE bank_feed_accounts SET bank_account_id = ${bankAccount.id}, import_from = ${importFrom},
          linked_at = ${request.now}, unlinked_at = NULL, unlink_reason = NULL
        WHERE company_id = ${companyId} AND bank_feed_id = ${path.id} AND account = ${body.account}`.pipe(Effect.orDie)
      // The item's history is replayed on the next sync so the new account gets its past transactions;
      // lines already imported are recognised by their transaction id.
      yield* sql`UPDATE bank_feeds SET sync_cursor = NULL WHERE company_id = ${companyId} AND id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: { bank_feed: yield* presentOne(yield* loadFeed(path.id, false)), bank_account: yield* BankAccounts.one(bankAccount.id) },
        audit: {
          targetType: "bank_feed",
          targetId: path.id,
          details: { account: body.account, bank_account_id: bankAccount.id, import_from: importFrom }
        }
      }
    })),

  Handler.make(Banking.BankFeeds.unlinkBankFeedAccount, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      yield* loadFeed(path.id, true)
      const rows = yield* sql<Record<string, unknown>>`UPDATE bank_feed_accounts SET bank_account_id = NULL, linked_at = NULL,
          unlinked_at = ${request.now}, unlink_reason = ${body.reason}
        WHERE company_id = ${companyId} AND bank_feed_id = ${path.id} AND account = ${body.account}
          AND bank_account_id IS NOT NULL RETURNING account`.pipe(Effect.orDie)
      if (rows.length === 0) {
        return yield* Effect.fail(ApiError.validationFailed("That feed account is not linked.", [{ path: ["body", "account"], message: "Not linked" }]))
      }
      return {
        body: yield* presentOne(yield* loadFeed(path.id, false)),
        audit: { targetType: "bank_feed", targetId: path.id, reason: body.reason, details: { account: body.account } }
      }
    })),

  Handler.make(Banking.BankFeeds.syncBankFeed, ({ path }) =>
    Effect.gen(function*() {
      const feed = yield* loadFeed(path.id, true)
      const result = yield* syncFeed(feed)
      return { body: result, audit: { targetType: "bank_feed", targetId: path.id, details: { ...result } } }
    })),

  Handler.make(Banking.BankFeeds.reconnectedBankFeed, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* ports
      yield* loadFeed(path.id, true)
      const feed = yield* loadFeed(path.id, false)
      const accessToken = yield* sealer.open(String(feed.sealed_access_token), boundTo(companyId, path.id))
      // The aggregator confirms the login works again; its account list may have changed meanwhile.
      const accounts = yield* aggregator.accounts(accessToken).pipe(Effect.mapError(badGateway))
      yield* refreshAccounts(path.id, accounts)
      yield* sql`UPDATE bank_feeds SET status = 'active', last_error = NULL WHERE company_id = ${companyId} AND id = ${path.id}`
        .pipe(Effect.orDie)
      return { body: yield* presentOne(yield* loadFeed(path.id, false)), audit: { targetType: "bank_feed", targetId: path.id } }
    })),

  Handler.make(Banking.BankFeeds.setBankFeedSettings, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const feed = yield* loadFeed(path.id, true)
      const includePending = body.include_pending ?? feed.include_pending === true
      const changed = (feed.include_pending === true) !== includePending
      let replay: typeof Banking.Records.SyncResult.Type | null = null
      if (changed) {
        if (!includePending) {
          // Pending lines nobody acted on go; the posted transactions will come as they post.
          yield* sql`UPDATE bank_lines SET withdrawn_at = ${request.now}, updated_at = ${request.now}
            WHERE company_id = ${companyId} AND pending AND withdrawn_at IS NULL AND status IN ('unmatched', 'excluded')
              AND bank_account_id IN (SELECT bank_account_id FROM bank_feed_accounts WHERE company_id = ${companyId}
                AND bank_feed_id = ${path.id} AND bank_account_id IS NOT NULL)`.pipe(Effect.orDie)
        }
        const updated = yield* sql<Record<string, unknown>>`UPDATE bank_feeds SET include_pending = ${includePending},
          sync_cursor = NULL WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
        replay = yield* syncFeed(updated[0]!)
      }
      return {
        body: { bank_feed: yield* presentOne(yield* loadFeed(path.id, false)), replay },
        audit: { targetType: "bank_feed", targetId: path.id, details: { include_pending: includePending, replayed: changed } }
      }
    }))
] as const
