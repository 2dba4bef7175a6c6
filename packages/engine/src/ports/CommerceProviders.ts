import { Context, Data, Effect, Layer } from "effect"

/**
 * The providers sales flow in from (spec 4.2), as one port: a payment processor (`provider_a`:
 * charges, fees, refunds and payouts) and a storefront (`provider_b`: orders with products,
 * discounts, shipping, taxes and tips). Both speak OAuth 2.0 with PKCE and a cursor-paged list of
 * changed objects. The real adapter is in @ledger/server (adapters/CommerceHttp.ts, base URL from
 * `LEDGER_PROVIDER_A_URL` / `LEDGER_PROVIDER_B_URL`); the testkit's `FakeCommerce` serves the same
 * HTTP API. Unconfigured, a provider's operations answer 503 `integration_provider_not_configured`.
 */

/** One amount of a synced object, by the mapping kind it lands through. */
export interface SourceLine {
  readonly kind: "category" | "product" | "discount" | "shipping" | "tax" | "tip" | "fee" | "refund" | "payout"
  /** The provider's key for it (a product SKU, a category, a tax name); mappings match it, else `*`. */
  readonly key: string
  /** Cents on the kind's own side; a negative amount goes on the other side (a fee given back, a refund of a sale). */
  readonly amountCents: number
}

/** An order, charge, refund, dispute or payout as the provider has it now (or one it does not book: `unsupported`). */
export interface SourceObject {
  readonly id: string
  readonly type: "order" | "charge" | "refund" | "dispute" | "payout" | "unsupported"
  /** Changes whenever the provider's object changes (its `updated_at` or revision). */
  readonly version: string
  readonly date: string
  readonly description: string
  readonly lines: ReadonlyArray<SourceLine>
  /** Why the object is not booked (a kind of money movement this adapter does not cover): kept, skipped, with this note. */
  readonly unsupported?: string
}

export interface ObjectPage {
  readonly objects: ReadonlyArray<SourceObject>
  /** Where the next call starts (also when nothing more is there yet). */
  readonly nextCursor: string
  readonly hasMore: boolean
}

export class CommerceFailure extends Data.TaggedError("CommerceFailure")<{
  readonly code: "not_configured" | "invalid_grant" | "unauthorized" | "unavailable" | "error"
  readonly message: string
}> {}

export interface Grant {
  readonly accessToken: string
  /** The provider's account (merchant or shop) the token reaches: the dedupe scope of its objects. */
  readonly accountId: string
  readonly accountName: string
}

export class CommerceProviders extends Context.Service<CommerceProviders, {
  /** The providers this deployment can reach. */
  readonly configured: (provider: string) => boolean
  readonly consentUrl: (input: {
    readonly provider: string
    readonly state: string
    readonly codeChallenge: string
    readonly redirectUri: string
  }) => string
  readonly exchange: (input: {
    readonly provider: string
    readonly code: string
    readonly codeVerifier: string
    readonly redirectUri: string
  }) => Effect.Effect<Grant, CommerceFailure>
  /** Objects changed since `cursor` (null: from the start), oldest first. */
  readonly objects: (input: {
    readonly provider: string
    readonly accessToken: string
    readonly cursor: string | null
  }) => Effect.Effect<ObjectPage, CommerceFailure>
  /** The provider's own balance of what it holds for the merchant (payout pending), if it has one. */
  readonly balance: (input: { readonly provider: string; readonly accessToken: string }) => Effect.Effect<number | null, CommerceFailure>
  readonly revoke: (input: { readonly provider: string; readonly accessToken: string }) => Effect.Effect<void, CommerceFailure>
}>()("@ledger/engine/CommerceProviders") {
  static readonly layerUnconfigured: Layer.Layer<CommerceProviders> = Layer.succeed(CommerceProviders)(CommerceProviders.of({
    configured: () => false,
    consentUrl: () => "",
    exchange: () => Effect.fail(notConfigured),
    objects: () => Effect.fail(notConfigured),
    balance: () => Effect.fail(notConfigured),
    revoke: () => Effect.fail(notConfigured)
  }))
}

const notConfigured = new CommerceFailure({ code: "not_configured", message: "No adapter for this provider is configured on this deployment." })
