import { Context, Data, Effect, Layer } from "effect"

/**
 * The online edition of the market leader's bookkeeping product, as a port (spec 4.16): OAuth
 * consent with a read-only scope, then its query API (`SELECT * FROM Entity STARTPOSITION n
 * MAXRESULTS 1000`, one metered read a page) and `COUNT(*)` queries for the estimate. The real
 * adapter is in @ledger/server (adapters/OnlineBooksHttp.ts, `LEDGER_ONLINE_BOOKS_URL`); the
 * testkit's `FakeOnlineBooks` serves the same HTTP API. Unconfigured, the online migration answers
 * 503 `online_migration_not_configured`.
 */

export class OnlineBooksFailure extends Data.TaggedError("OnlineBooksFailure")<{
  readonly code: "not_configured" | "invalid_grant" | "unauthorized" | "throttled" | "unavailable" | "error"
  readonly message: string
}> {}

/** The entities extracted, in order. */
export const entities = [
  "Account", "Customer", "Vendor", "Item", "Invoice", "Bill", "Payment", "BillPayment", "JournalEntry",
  // The everyday posting types an ordinary company has (issue 39 item 11): without them it cannot tie out.
  "SalesReceipt", "RefundReceipt", "CreditMemo", "Deposit", "Transfer", "Purchase", "VendorCredit"
] as const
export type Entity = typeof entities[number]

/** What the token endpoint grants: the access token, how long it lasts, and the refresh token (null when none was given). */
export interface OnlineGrant {
  readonly accessToken: string
  readonly expiresInSeconds: number
  readonly refreshToken: string | null
}

export class OnlineBooks extends Context.Service<OnlineBooks, {
  readonly configured: boolean
  /** The deployment's monthly read budget (metered calls). */
  readonly monthlyReadBudget: number
  readonly consentUrl: (input: { readonly state: string; readonly redirectUri: string }) => string
  readonly exchange: (input: { readonly code: string; readonly realmId: string; readonly redirectUri: string }) => Effect.Effect<OnlineGrant, OnlineBooksFailure>
  /**
   * A new access token for a refresh token (OAuth 2.0 `grant_type=refresh_token`), so an
   * extraction outlives its access token without a new consent. The answer's refresh token may be
   * a new one (Intuit rotates them): it replaces the old. `invalid_grant`: the consent was revoked
   * or has expired, and only a new consent helps.
   */
  readonly refresh: (input: { readonly refreshToken: string }) => Effect.Effect<OnlineGrant, OnlineBooksFailure>
  readonly count: (input: { readonly accessToken: string; readonly realmId: string; readonly entity: Entity }) => Effect.Effect<number, OnlineBooksFailure>
  /** One page: `startPosition` is 1-based, `maxResults` at most 1,000. */
  readonly query: (input: {
    readonly accessToken: string
    readonly realmId: string
    readonly entity: Entity
    readonly startPosition: number
    readonly maxResults: number
  }) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, OnlineBooksFailure>
  readonly revoke: (input: { readonly accessToken: string }) => Effect.Effect<void, OnlineBooksFailure>
}>()("@ledger/engine/OnlineBooks") {
  static readonly layerUnconfigured: Layer.Layer<OnlineBooks> = Layer.succeed(OnlineBooks)(OnlineBooks.of({
    configured: false,
    monthlyReadBudget: 0,
    consentUrl: () => "",
    exchange: () => Effect.fail(notConfigured),
    refresh: () => Effect.fail(notConfigured),
    count: () => Effect.fail(notConfigured),
    query: () => Effect.fail(notConfigured),
    revoke: () => Effect.fail(notConfigured)
  }))
}

const notConfigured = new OnlineBooksFailure({ code: "not_configured", message: "No online-edition adapter is configured on this deployment." })
