import { Context, Data, Effect, Layer } from "effect"

/**
 * The bank-feed aggregator, as a port: link tokens for its widget, the exchange of the widget's
 * public token for an access token, the accounts behind it, and a cursor-based sync of added,
 * modified and removed transactions (the shape Plaid-style aggregators share). The engine layer
 * requires it; a deployment without an aggregator provides `Aggregator.layerUnconfigured`, and the
 * feed operations then answer 503 `bank_feeds_not_configured`. Tests use the testkit's
 * `FakeAggregator`; real adapters live in @ledger/server (packages/server/src/adapters).
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
  /**
   * `login_required`: the person must reconnect (update mode); `not_configured`: this deployment
   * has no aggregator (the unconfigured layer); `restart_pagination`: the item's data changed while
   * a sync was paging through it, so the pages since the run's first cursor must be thrown away and
   * the run started again from that cursor (Plaid's TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION);
   * anything else is the aggregator's fault.
   */
  readonly code: "login_required" | "invalid_token" | "unavailable" | "restart_pagination" | "error" | "not_configured"
  readonly message: string
}> {}

export class Aggregator extends Context.Service<Aggregator, {
  /** False only for `layerUnconfigured`: the feed operations check it before any call. */
  readonly configured: boolean
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
}>()("@ledger/engine/Aggregator") {
  /**
   * No aggregator on this deployment: every call fails with `not_configured`, which the feed
   * operations answer as 503 `bank_feeds_not_configured` (they refuse before calling, by `configured`).
   */
  static readonly layerUnconfigured: Layer.Layer<Aggregator> = Layer.sync(Aggregator)(() => {
    const notConfigured = Effect.fail(new AggregatorFailure({
      code: "not_configured",
      message: "No bank-feed aggregator is configured on this deployment."
    }))
    return Aggregator.of({
      configured: false,
      createLinkToken: () => notConfigured,
      exchangePublicToken: () => notConfigured,
      accounts: () => notConfigured,
      sync: () => notConfigured
    })
  })
}
