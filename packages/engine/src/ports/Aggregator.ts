import { Context, Data, type Effect } from "effect"

/**
 * The bank-feed aggregator, as a port (DESIGN.md "Ports"): link tokens for its widget, the
 * exchange of the widget's public token for an access token, the accounts behind it, and a
 * cursor-based sync of added, modified and removed transactions (the shape Plaid-style
 * aggregators share). A deployment without an aggregator simply has none in its context: the feed
 * operations then answer 503 `bank_feeds_not_configured`. Tests and the testkit use
 * FakeAggregator.ts; real adapters live in @ledger/server.
 */

export interface FeedAccountInfo {
  readonly accountId: string
  readonly name: string
  readonly mask: string | null
  /** checking, savings, credit_card, other. */
  readonly kind: string
}

export interface FeedTransaction {
  readonly transactionId: string
  readonly accountId: string
  readonly date: string
  /** Signed cents: positive is money into the account (the aggregator's sign already turned round). */
  readonly amountCents: number
  readonly name: string | null
  readonly memo: string | null
  readonly pending: boolean
  /** On a posted transaction: the pending one it replaces. */
  readonly pendingTransactionId: string | null
}

export interface SyncPage {
  readonly added: ReadonlyArray<FeedTransaction>
  readonly modified: ReadonlyArray<FeedTransaction>
  readonly removed: ReadonlyArray<string>
  readonly nextCursor: string
  readonly hasMore: boolean
}

export class AggregatorFailure extends Data.TaggedError("AggregatorFailure")<{
  /** `login_required`: the person must reconnect (update mode); anything else is the aggregator's fault. */
  readonly code: "login_required" | "invalid_token" | "unavailable" | "error"
  readonly message: string
}> {}

export class Aggregator extends Context.Service<Aggregator, {
  readonly createLinkToken: (input: {
    readonly companyId: string
    readonly clientUserId: string
    /** Update mode: reconnect this access token's item. */
    readonly accessToken: string | null
    readonly accountSelection: boolean
  }) => Effect.Effect<{ readonly linkToken: string; readonly expiresAt: string }, AggregatorFailure>
  readonly exchangePublicToken: (publicToken: string) => Effect.Effect<{
    readonly accessToken: string
    readonly itemId: string
    readonly institution: string | null
  }, AggregatorFailure>
  readonly accounts: (accessToken: string) => Effect.Effect<ReadonlyArray<FeedAccountInfo>, AggregatorFailure>
  /** Transactions since `cursor` (null: everything the item holds now). */
  readonly sync: (accessToken: string, cursor: string | null) => Effect.Effect<SyncPage, AggregatorFailure>
}>()("@ledger/engine/Aggregator") {}
