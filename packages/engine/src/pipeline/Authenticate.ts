import { Context, Effect, Option, Result } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import type { Operation } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import type { CredentialMemory } from "./batching/CredentialMemory.ts"
import * as Idempotency from "./Idempotency.ts"
import {
  type Asking,
  type Authenticated,
  type CompanyState,
  type CredentialStrategy,
  type Door,
  type Refused,
  refusedUnknown
} from "./authenticate/Credential.ts"

export type {
  ApiKeyUse,
  Asking,
  Authenticated,
  CompanyState,
  CredentialState,
  CredentialStrategy,
  Door,
  Refused,
  StoredResult
} from "./authenticate/Credential.ts"
export { currentCredentialsCount } from "./authenticate/CredentialStates.ts"

/**
 * Who is asking: the credential strategies the areas register (`Area.credentialStrategies`, in the
 * area that owns each credential's tables), tried by the door of the operation's credential kind
 * in their stated order (authenticate/Credential.ts `CredentialStrategy`). Today:
 *
 * | door | order | strategy | area |
 * |---|---|---|---|
 * | operator | 10 | operator_token | administration |
 * | company | 10 | oauth_access_token | ai-apps |
 * | company | 20 | firm_credential_in_client | firms |
 * | company | 30 | api_key | administration |
 * | company | 40 | web_session | auth |
 * | company | 90 | firm_key_without_client | firms |
 * | firm | 10 | firm_session | firms |
 * | firm | 20 | firm_key | firms |
 * | invitation | 10 | owner_invitation | firms |
 *
 * A door with no strategy refuses every token, so an operation declared with it is refused rather
 * than served by a strategy that pretends to work.
 */

/** What a request without a token is told, by door. */
const missing: Record<Door, string> = {
  operator: "The operator token is required.",
  company: "A Bearer credential is required.",
  firm: "A Bearer credential is required.",
  invitation: "An invitation token is required."
}

/** The registered strategies by door, and what the pipeline and HTTP ask of them. */
export interface Doors {
  /**
   * Who is asking, by the kind of credential the operation takes: null for an operation that
   * takes none. `asking.idempotencyKey` is a keyed write's valid key: a strategy that can also
   * reads the record its principal holds under it (`Authenticated.stored`).
   */
  readonly forOperation: (
    kind: Operation.Credential,
    token: string | null,
    asking: Asking
  ) => Effect.Effect<Authenticated | null, Refused | SqlError.SqlError, SqlClient.SqlClient>
  /** Whether a strategy of the door recognises the token as a company's or firm's own credential (read nothing). */
  readonly recognises: (kind: Door, token: string) => boolean
  /**
   * Whether `token` may be a credential an operation of `kind` accepts, by its form alone (reading
   * nothing): false for no token, or one no strategy of the kind recognises, which the pipeline
   * would refuse without a lookup. HTTP refuses such a request before reading its body (issue 41 item 3).
   */
  readonly mayAuthenticate: (kind: Operation.Credential, token: string | null, company: string | null) => boolean
  /** Whether a token is one whose findings the pipeline's memory keeps (a company API key's), by its form alone. */
  readonly isApiKey: (token: string) => boolean
}

/** The door's strategies that recognise the token, from `from` on, tried in turn (see `CredentialStrategy`). */
const tryFrom = (
  strategies: ReadonlyArray<CredentialStrategy>,
  from: number,
  token: string,
  asking: Asking,
  refusal: Refused | null
): Effect.Effect<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> => {
  const company = asking.company ?? null
  const index = strategies.findIndex((strategy, at) => at >= from && strategy.recognises(token, company))
  if (index < 0) return Effect.fail(refusal ?? refusedUnknown("The credential is not valid."))
  const next = (kept: Refused | null) => tryFrom(strategies, index + 1, token, asking, kept)
  return strategies[index]!.authenticate(token, asking).pipe(
    Effect.catchIf(
      (error): error is Refused => !SqlError.isSqlError(error) && error.known === null,
      (unknown) => Effect.map(next(refusal ?? unknown), Option.some)
    ),
    Effect.flatMap((found) => Option.isSome(found) ? Effect.succeed(found.value) : next(refusal))
  )
}

/**
 * The doors over the areas' strategies, each door's in their stated order; two strategies of one
 * door with one order, or two of one name, are a programmer's error.
 */
export const doorsOf = (strategies: ReadonlyArray<CredentialStrategy>): Doors => {
  const byDoor = new Map<Door, Array<CredentialStrategy>>()
  const names = new Set<string>()
  for (const strategy of strategies) {
    if (names.has(strategy.name)) throw new Error(`The credential strategy ${strategy.name} is registered twice`)
    names.add(strategy.name)
    const door = byDoor.get(strategy.door) ?? []
    if (door.some((other) => other.order === strategy.order)) {
      throw new Error(`Credential strategies of the ${strategy.door} door share the order ${strategy.order}: give ${strategy.name} its own`)
    }
    byDoor.set(strategy.door, [...door, strategy].sort((a, b) => a.order - b.order))
  }
  const of = (door: Door): ReadonlyArray<CredentialStrategy> => byDoor.get(door) ?? []
  const recognises = (kind: Door, token: string) =>
    of(kind).some((strategy) => strategy.firmInClient !== true && strategy.recognises(token, null))
  return {
    forOperation: (kind, token, asking) => {
      if (kind === "none") return Effect.succeed(null)
      if (of(kind).length === 0) return Effect.fail(refusedUnknown("This credential kind is not accepted here yet."))
      if (token === null) return Effect.fail(refusedUnknown(missing[kind]))
      return tryFrom(of(kind), 0, token, asking, null)
    },
    recognises,
    mayAuthenticate: (kind, token, company) => {
      if (kind === "none") return true
      if (token === null || token === "") return false
      return of(kind).some((strategy) => strategy.recognises(token, company))
    },
    isApiKey: (token) => strategies.some((strategy) => strategy.remembered === true && strategy.recognises(token, null))
  }
}

/** The engine's doors (Engine.ts makes them of its areas' strategies), for the Dispatcher. */
export class Credentials extends Context.Service<Credentials, Doors>()("@ledger/engine/Credentials") {}

/**
 * Who is asking, as the first step of the pipeline finds it (Admission.identify): from the
 * engine's memory of API keys when it may
 * (docs/decisions/0713-credentials-remembered-for-group-commit.md), else by the strategy's
 * statement (`forOperation`).
 */
export interface Caller {
  /** The credential's actor and company, or null for an operation that takes none; else the refusal. */
  readonly authenticated: Result.Result<Authenticated | null, Refused>
  /**
   * The key came from memory, without a statement: only its batch's statement, which checks the
   * key, may answer the request; any other outcome runs the request again, read afresh.
   */
  readonly recalled: boolean
  /** The hash of the secret, when the request may be remembered or recalled; else null. */
  readonly secretHash: string | null
}

export interface Identifying {
  readonly operation: Operation.Any
  /** The Bearer token, without the word Bearer. */
  readonly credential: string | null
  readonly idempotencyKey: string | null
  readonly now: string
  readonly nowMs: number
  /** The operation commits in groups (GroupCommit.commitsInGroups). */
  readonly batched: boolean
  /** This run may take the key from memory: false for a run after one that did and was not answered. */
  readonly recall: boolean
  /** `X-Ledger-Company`: the client a firm credential acts in. */
  readonly company?: string | null
}

/** A refusal is the pipeline's to answer; a database that failed is a fault, and stays an error. */
const refusedOrFault = <A>(
  effect: Effect.Effect<A, Refused | SqlError.SqlError>
): Effect.Effect<Result.Result<A, Refused>, SqlError.SqlError> =>
  effect.pipe(
    Effect.map(Result.succeed),
    Effect.catchIf(
      (error): error is Refused => !SqlError.isSqlError(error),
      (refused) => Effect.succeed(Result.fail(refused))
    )
  )

export const identify = Effect.fn("Authenticate.identify")(function*(
  sql: SqlClient.SqlClient,
  credentials: CredentialMemory,
  doors: Doors,
  asking: Identifying
): Effect.fn.Return<Caller, SqlError.SqlError> {
  const { operation } = asking
  // A keyed write's record under its key is read with the API key: a replay is one statement.
  const replayKey = operation.mode === "K" && asking.idempotencyKey !== null && Idempotency.isValidKey(asking.idempotencyKey)
    ? asking.idempotencyKey
    : null
  const secretHash = asking.batched && replayKey !== null && operation.credential === "company" &&
      asking.credential !== null && doors.isApiKey(asking.credential)
    ? yield* Secret.hash(asking.credential)
    : null
  // A retry of a write this engine answered lately is not recalled: its statement reads the
  // record and replays it.
  const recalled = secretHash === null || replayKey === null || !asking.recall ||
      credentials.wasAnswered(secretHash, replayKey)
    ? undefined
    : credentials.recall(secretHash, asking.nowMs)
  if (recalled !== undefined) return { authenticated: Result.succeed(recalled), recalled: true, secretHash }
  const authenticated = yield* refusedOrFault(
    doors.forOperation(operation.credential, asking.credential, {
      now: asking.now,
      idempotencyKey: replayKey,
      secretHash,
      personal: operation.browserSessionOnly,
      company: asking.company ?? null
    })
      .pipe(Effect.provideService(SqlClient.SqlClient, sql))
  )
  if (asking.batched && Result.isSuccess(authenticated) && authenticated.success !== null) {
    credentials.remember(authenticated.success)
  }
  // A firm credential in a keyed write that commits in groups is answered as a key from memory is
  // (ADR 0903): only its batch's statement, which checks the credential and its client's grant
  // are still as read here, may answer it; any other outcome runs the request again, read afresh,
  // so a credential or grant revoked in between never writes.
  const firmInBatch = asking.batched && asking.recall && replayKey !== null && Result.isSuccess(authenticated) &&
    authenticated.success?.firmCredential !== undefined
  return { authenticated, recalled: firmInBatch, secretHash }
})

/** Reads a company's pipeline state (for operator requests that name a company). */
export const companyState = Effect.fn("Authenticate.companyState")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`
    SELECT company_id, plan, rate_limit_rpm, kill_switch_suspended FROM companies WHERE company_id = ${companyId}`
  const row = rows[0]
  if (row === undefined) return Option.none<CompanyState>()
  return Option.some<CompanyState>({
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  })
})
