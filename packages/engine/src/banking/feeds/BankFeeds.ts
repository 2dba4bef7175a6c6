import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import { Entitlements } from "../../billing/index.ts"
import * as BankFeedRules from "./BankFeedRules.ts"
import * as BankFeedStore from "./BankFeedStore.ts"

/**
 * Bank feeds (spec 4.5): an aggregator connection per bank login, its access token sealed at rest,
 * its accounts linked to bank accounts (within the plan's limit), synced on request. The
 * aggregator and the sealer are ports: a deployment without them answers 503
 * `bank_feeds_not_configured`; a failing aggregator answers 502.
 */

export const handlers = [
  Handler.make(Banking.BankFeeds.listBankFeeds, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM bank_feeds WHERE company_id = ${companyId}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const page = yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => row)
      const company = yield* sql<{ plan: string }>`SELECT plan FROM companies WHERE company_id = ${companyId}`.pipe(Effect.orDie)
      const linked = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_feed_accounts WHERE company_id = ${companyId}
        AND bank_account_id IS NOT NULL`.pipe(Effect.orDie)
      const plan = company[0]!.plan
      return {
        body: {
          ...page,
          data: yield* BankFeedStore.present(page.data),
          feeds_configured: yield* BankFeedStore.configured,
          plan,
          linked_accounts: Row.int(linked[0]!.n),
          linked_accounts_limit: yield* Entitlements.feedAccountsLimit(BankFeedRules.linkedAccountsLimit(plan))
        }
      }
    })),

  Handler.make(Banking.BankFeeds.getBankFeed, ({ path }) =>
    Effect.gen(function*() {
      return { body: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(path.id, false)) }
    })),

  Handler.make(Banking.BankFeeds.createBankFeedLinkToken, ({ body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* BankFeedStore.ports
      let accessToken: string | null = null
      if (body.bank_feed_id !== undefined) {
        const feed = yield* BankFeedStore.loadFeed(body.bank_feed_id, false)
        accessToken = yield* sealer.open(String(feed.sealed_access_token), BankFeedRules.boundTo(companyId, body.bank_feed_id))
      }
      const token = yield* aggregator.createLinkToken({
        companyId,
        clientUserId: `${request.actor.type}:${request.actor.id ?? "?"}`,
        accessToken,
        accountSelection: body.account_selection === true
      }).pipe(Effect.mapError(BankFeedStore.badGateway))
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
      const { aggregator, sealer } = yield* BankFeedStore.ports
      const exchanged = yield* aggregator.exchangePublicToken(body.public_token).pipe(Effect.mapError(BankFeedStore.badGateway))
      const accounts = yield* aggregator.accounts(exchanged.accessToken).pipe(Effect.mapError(BankFeedStore.badGateway))
      const id = Row.int((yield* sql<{ id: unknown }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie))[0]!.id)
      const sealed = yield* sealer.seal(exchanged.accessToken, BankFeedRules.boundTo(companyId, id))
      yield* sql`INSERT INTO bank_feeds ${sql.insert({
        company_id: companyId,
        id,
        item_id: exchanged.itemId,
        institution: exchanged.institution,
        sealed_access_token: sealed,
        created_at: request.now
      })}`.pipe(Effect.orDie)
      yield* BankFeedStore.refreshAccounts(id, accounts)
      return {
        body: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(id, false)),
        audit: { targetType: "bank_feed", targetId: id, details: { institution: exchanged.institution, accounts: accounts.length } }
      }
    })),

  Handler.make(Banking.BankFeeds.linkBankFeedAccount, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* BankFeedStore.ports
      const feed = yield* BankFeedStore.loadFeed(path.id, true)
      const accessToken = yield* sealer.open(String(feed.sealed_access_token), BankFeedRules.boundTo(companyId, path.id))
      const accounts = yield* aggregator.accounts(accessToken).pipe(Effect.mapError(BankFeedStore.badGateway))
      yield* BankFeedStore.refreshAccounts(path.id, accounts)
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
      yield* BankFeedStore.requireLinkPlace(companyId)
      const bankAccount = body.bank_account_id !== undefined
        ? yield* BankAccounts.one(body.bank_account_id)
        : yield* BankAccounts.create(body.new_bank_account!, ["body", "new_bank_account"])
      if (bankAccount.feed !== null) {
        return yield* Effect.fail(ApiError.validationFailed("That bank account already takes another feed account.", [
          { path: ["body", "bank_account_id"], message: "Already linked to a feed" }
        ]))
      }
      const importFrom = body.import_from ?? (yield* BankFeedStore.defaultImportFrom(bankAccount.id))
      yield* sql`UPDATE bank_feed_accounts SET bank_account_id = ${bankAccount.id}, import_from = ${importFrom},
          linked_at = ${request.now}, unlinked_at = NULL, unlink_reason = NULL
        WHERE company_id = ${companyId} AND bank_feed_id = ${path.id} AND account = ${body.account}`.pipe(Effect.orDie)
      // The item's history is replayed on the next sync so the new account gets its past transactions;
      // lines already imported are recognised by their transaction id.
      yield* sql`UPDATE bank_feeds SET sync_cursor = NULL WHERE company_id = ${companyId} AND id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: { bank_feed: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(path.id, false)), bank_account: yield* BankAccounts.one(bankAccount.id) },
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
      yield* BankFeedStore.loadFeed(path.id, true)
      const rows = yield* sql<Record<string, unknown>>`UPDATE bank_feed_accounts SET bank_account_id = NULL, linked_at = NULL,
          unlinked_at = ${request.now}, unlink_reason = ${body.reason}
        WHERE company_id = ${companyId} AND bank_feed_id = ${path.id} AND account = ${body.account}
          AND bank_account_id IS NOT NULL RETURNING account`.pipe(Effect.orDie)
      if (rows.length === 0) {
        return yield* Effect.fail(ApiError.validationFailed("That feed account is not linked.", [{ path: ["body", "account"], message: "Not linked" }]))
      }
      return {
        body: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(path.id, false)),
        audit: { targetType: "bank_feed", targetId: path.id, reason: body.reason, details: { account: body.account } }
      }
    })),

  Handler.make(Banking.BankFeeds.syncBankFeed, ({ path }) =>
    Effect.gen(function*() {
      const feed = yield* BankFeedStore.loadFeed(path.id, true)
      const result = yield* BankFeedStore.syncFeed(feed)
      return { body: result, audit: { targetType: "bank_feed", targetId: path.id, details: { ...result } } }
    })),

  Handler.make(Banking.BankFeeds.reconnectedBankFeed, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const { aggregator, sealer } = yield* BankFeedStore.ports
      yield* BankFeedStore.loadFeed(path.id, true)
      const feed = yield* BankFeedStore.loadFeed(path.id, false)
      const accessToken = yield* sealer.open(String(feed.sealed_access_token), BankFeedRules.boundTo(companyId, path.id))
      // The aggregator confirms the login works again; its account list may have changed meanwhile.
      const accounts = yield* aggregator.accounts(accessToken).pipe(Effect.mapError(BankFeedStore.badGateway))
      yield* BankFeedStore.refreshAccounts(path.id, accounts)
      yield* sql`UPDATE bank_feeds SET status = 'active', last_error = NULL WHERE company_id = ${companyId} AND id = ${path.id}`
        .pipe(Effect.orDie)
      return { body: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(path.id, false)), audit: { targetType: "bank_feed", targetId: path.id } }
    })),

  Handler.make(Banking.BankFeeds.setBankFeedSettings, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const feed = yield* BankFeedStore.loadFeed(path.id, true)
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
        replay = yield* BankFeedStore.syncFeed(updated[0]!)
      }
      return {
        body: { bank_feed: yield* BankFeedStore.presentOne(yield* BankFeedStore.loadFeed(path.id, false)), replay },
        audit: { targetType: "bank_feed", targetId: path.id, details: { include_pending: includePending, replayed: changed } }
      }
    }))
] as const
