import { Effect, Option } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { ApiError, type Operation } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"

/**
 * What every credential kind shares: the one small interface a strategy implements
 * (`CredentialStrategy`: recognise the token by its shape, then authenticate it to an actor and a
 * company, or refuse it), and what the pipeline receives from it. Each strategy lives in the area
 * whose tables it reads and is registered in that area's `Area` (`credentialStrategies`), as write
 * guards are; `../Authenticate.ts` tries an operation's door's strategies in their stated order.
 */

/** A company as the pipeline needs it on every request. */
export interface CompanyState {
  readonly companyId: string
  readonly plan: "solo" | "business" | "advanced" | "owned"
  readonly rateLimitRpm: number | null
  readonly killSwitchSuspended: boolean
  /** The suspension is a firm's kill switch over its agents, not the company's own: the refusal names the firm's. */
  readonly killSwitchOfFirm?: boolean | undefined
}

/**
 * An API key and everything the pipeline decides by along with it (the key, its company, its user
 * or agent) as one value, `state`, that changes whenever any of them does.
 */
export interface CredentialState {
  readonly companyId: string
  readonly keyId: number
  readonly state: string
}

/**
 * A firm key or session acting in a client (`keyId` its id, `companyId` the client), in the state
 * authentication found it and its client's grant in (SQL `ledger_firm_credential_state`, migration
 * 0024): a group commit's statement re-checks it (FirmCredential.currentCount, ADR 0903).
 */
export interface FirmCredentialState extends CredentialState {
  readonly kind: "firm_key" | "firm_session"
  readonly firmId: number
}

/** A key as authentication found it: its state, the hash of its secret, and until when that finding may be reused. */
export interface ApiKeyUse extends CredentialState {
  readonly secretHash: string
  /**
   * The key's expiry, its rotation overlap's end, or a minute after its last use was written,
   * whichever is first: past it, only a full authentication may let the key act (and write its
   * last use).
   */
  readonly reusableUntilMs: number
}

/** An idempotency record as stored (Idempotency.ts decides what it means for the request). */
export interface StoredResult {
  /** The first 16 bytes of the request's fingerprint, as 32 hexadecimal characters (`Idempotency.requestHashOf`). */
  readonly requestHash: string
  readonly status: number
  /** The answer of a record written before ADR 0706, as `json`; null once `answer` holds it. */
  readonly body: unknown
  /** The answer packed (StoredAnswer.ts); null for a record written before ADR 0706. */
  readonly answer: Uint8Array | null
  readonly expiresAt: string
}

/**
 * A keyed request's claim on its Idempotency-Key: what the record it writes is scoped to and
 * fingerprinted by (Idempotency.ts; a group commit writes it too, GroupCommit.ts).
 */
export interface KeyedRequest {
  /** `company:<uuid>`, `firm:<id>` or `operator`: keys are scoped to it and to the principal. */
  readonly tenant: string
  readonly principal: string
  readonly key: string
  /** The request's fingerprint (`Idempotency.requestHashOf`), computed once per request. */
  readonly requestHash: string
  readonly now: string
  /**
   * The Bearer credential of the request. Never stored: secrets in the result are sealed with a
   * key derived from it, so only a replay with the same credential can read them again.
   */
  readonly credential: string | null
}

export interface Authenticated {
  readonly actor: Actor
  readonly company: CompanyState | null
  /**
   * The idempotency record this principal already holds under the request's Idempotency-Key, read
   * by the same statement: a replay is then answered with no transaction at all.
   */
  readonly stored?: StoredResult | null
  /** An API key's: the state it was found in, by which the pipeline may remember it (CredentialMemory.ts). */
  readonly apiKey?: ApiKeyUse | undefined
  /** A firm credential's in a client: the state a batch's statement checks it is still in. */
  readonly firmCredential?: FirmCredentialState | undefined
}

/** A credential that was recognised but may not be used, so the refusal can be audited. */
export interface Refused {
  readonly error: ApiError.LedgerError
  readonly known: Authenticated | null
}

/** What a strategy may use besides the token. */
export interface Asking {
  readonly now: string
  /**
   * A keyed write's valid Idempotency-Key, or null: a strategy that can read the record its
   * principal holds under it in the same statement does (`Authenticated.stored`).
   */
  readonly idempotencyKey: string | null
  /** The token's `Secret.hash` when the caller has it already, else null. */
  readonly secretHash: string | null
  /**
   * The operation is a person's own (`browserSessionOnly`: sign-out, `/v1/me/...`): a firm member's
   * signed-in session may call it at the firm level, without naming a client.
   */
  readonly personal?: boolean
  /** `X-Ledger-Company` as given (over MCP `_meta["dev.ledger/company"]`): the client a firm credential acts in. */
  readonly company?: string | null
}

/** The doors of the pipeline: the credential kind an operation takes (`none` has no door). */
export type Door = Exclude<Operation.Credential, "none">

/**
 * One kind of credential, registered by the area that owns its tables (`Area.credentialStrategies`).
 * `recognises` looks at the token alone (its prefix, its shape) and the client it names, with no
 * I/O, so the pipeline knows which strategies may own a token before it asks anything; HTTP refuses
 * a body sent with a token no strategy of its door recognises before reading it.
 *
 * The pipeline tries the strategies of an operation's door that recognise the token, by `order`
 * (lowest first; two of one door may not share an order), and:
 * - the first that answers Some authenticates the caller;
 * - None says the token is not its credential: the next strategy decides;
 * - a refusal naming somebody (`known` not null) is the answer;
 * - a refusal naming nobody lets the next strategies try (a firm key has an API key's prefix); it
 *   is the answer when none of them answers or refuses otherwise.
 * When every strategy passes, the token is refused as "The credential is not valid."
 */
export interface CredentialStrategy {
  /** For traces and docs: `api_key`, `operator_token`, ... unique across the engine. */
  readonly name: string
  readonly door: Door
  readonly order: number
  readonly recognises: (token: string, company: string | null) => boolean
  /** A database that fails is no refusal: its `SqlError` is the Dispatcher's to answer. */
  readonly authenticate: (
    token: string,
    asking: Asking
  ) => Effect.Effect<Option.Option<Authenticated>, Refused | SqlError.SqlError, SqlClient.SqlClient>
  /**
   * What it authenticates may be remembered by the pipeline for a group commit's writes and
   * recalled without a statement (a company API key's, ADR 0713: `Authenticated.apiKey`).
   */
  readonly remembered?: boolean
  /**
   * It authenticates a firm's credential on a company's door (acting in a client): left out when
   * the MCP door asks whether a token may be a company's own credential (`Doors.recognises`).
   */
  readonly firmInClient?: boolean
}

/** A strategy that owns every token it recognises by its prefix: it answers or refuses, never passes. */
export const byPrefix = (strategy: {
  readonly name: string
  readonly door: Door
  readonly order: number
  readonly prefix: string
  readonly remembered?: boolean
  readonly authenticate: (token: string, asking: Asking) => Effect.Effect<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient>
}): CredentialStrategy => ({
  name: strategy.name,
  door: strategy.door,
  order: strategy.order,
  recognises: (token) => token.startsWith(strategy.prefix),
  authenticate: (token, asking) => Effect.map(strategy.authenticate(token, asking), Option.some),
  ...(strategy.remembered === undefined ? {} : { remembered: strategy.remembered })
})

export const unauthorized = (message: string): ApiError.LedgerError => ApiError.fail("unauthorized", message)

/** A refusal of a token that names nobody: not audited. */
export const refusedUnknown = (message: string): Refused => ({ error: unauthorized(message), known: null })
