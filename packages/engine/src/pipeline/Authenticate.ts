import { Effect, Option, Result } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import type { Operation } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import type { CredentialMemory } from "./batching/CredentialMemory.ts"
import * as Idempotency from "./Idempotency.ts"
import * as ApiKey from "./authenticate/ApiKey.ts"
import {
  type Asking,
  type Authenticated,
  type CompanyState,
  type CredentialState,
  type Refused,
  refusedUnknown,
  type Strategy
} from "./authenticate/Credential.ts"
import * as OperatorToken from "./authenticate/OperatorToken.ts"
import * as OAuthAccessToken from "./authenticate/OAuthAccessToken.ts"
import * as FirmCredential from "./authenticate/FirmCredential.ts"
import * as FirmKey from "./authenticate/FirmKey.ts"
import * as FirmSession from "./authenticate/FirmSession.ts"
import * as OwnerInvitation from "./authenticate/OwnerInvitation.ts"
import * as Session from "./authenticate/Session.ts"

export type {
  ApiKeyUse,
  Asking,
  Authenticated,
  CompanyState,
  CredentialState,
  Refused,
  StoredResult,
  Strategy
} from "./authenticate/Credential.ts"
export { lastUseResolutionMs } from "./authenticate/ApiKey.ts"

/**
 * A query counting the credentials a group commit relied on that are still in the state given
 * (one column, `count`): company API keys (ApiKey.currentCredentialsCount) and firm credentials
 * acting in a client (FirmCredential.currentCount, ADR 0903).
 */
export const currentCredentialsCount = (sql: SqlClient.SqlClient, credentials: ReadonlyArray<CredentialState>) => {
  const firm = credentials.filter(FirmCredential.isFirmState)
  if (firm.length === 0) return ApiKey.currentCredentialsCount(sql, credentials)
  const keys = credentials.filter((credential) => !FirmCredential.isFirmState(credential))
  return sql`SELECT (${ApiKey.currentCredentialsCount(sql, keys)}) + (${FirmCredential.currentCount(sql, firm)}) AS count`
}

/**
 * Who is asking: the strategy for the token (authenticate/<Credential>.ts), by the kind of
 * credential the operation takes.
 */

/** The strategies an operation's credential kind accepts, and what a request without a token is told. */
interface Door {
  readonly missing: string
  readonly strategies: ReadonlyArray<Strategy>
}

/**
 * Every credential kind with its strategies, tried in order; the first that recognises the token
 * authenticates it. Slots the next issues fill, each a file in authenticate/ with its prefix:
 *
 * - `company`: a web session (a person signed in), and an OAuth access token (an AI app connected
 *   by a person), each an actor in one company like an API key;
 * - `firm`: a firm key and a firm session (a firm's people and agents, acting in a client through
 *   a grant named by `X-Ledger-Company`);
 * - `invitation`: an owner invitation (the one operation that accepts it).
 *
 * A kind with no strategy yet refuses every token, so an operation declared with it is refused
 * rather than served by a strategy that pretends to work.
 */
const doors: Record<Exclude<Operation.Credential, "none">, Door> = {
  operator: { missing: "The operator token is required.", strategies: [OperatorToken.strategy] },
  company: { missing: "A Bearer credential is required.", strategies: [ApiKey.strategy, Session.strategy, OAuthAccessToken.strategy] },
  firm: { missing: "A Bearer credential is required.", strategies: [FirmSession.strategy, FirmKey.strategy] },
  invitation: { missing: "An invitation token is required.", strategies: [OwnerInvitation.strategy] }
}

/**
 * Who is asking, by the kind of credential the operation takes: null for an operation that takes
 * none. `asking.idempotencyKey` is a keyed write's valid key: a strategy that can also reads the
 * record its principal holds under it (`Authenticated.stored`).
 */
export const forOperation = (
  kind: Operation.Credential,
  token: string | null,
  asking: Asking,
  company: string | null = null
): Effect.Effect<Authenticated | null, Refused | SqlError.SqlError, SqlClient.SqlClient> => {
  if (kind === "none") return Effect.succeed(null)
  const door = doors[kind]
  if (door.strategies.length === 0) return Effect.fail(refusedUnknown("This credential kind is not accepted here yet."))
  if (token === null) return Effect.fail(refusedUnknown(door.missing))
  // An AI app's access token acts in the company named, for a firm connection (OAuthAccessToken.ts).
  if (kind === "company" && OAuthAccessToken.strategy.recognises(token)) return OAuthAccessToken.authenticateIn(token, asking, company)
  // A firm credential in a client (X-Ledger-Company): resolved by the firm's strategies, through
  // the client's grant; a token that is no firm credential goes on to the company's own.
  if (kind === "company" && FirmCredential.mayBe(token, company)) {
    return Effect.flatMap(
      FirmCredential.forClient(token, asking, company),
      (found) => found._tag === "Some" ? Effect.succeed(found.value) : byDoor(door, token, asking)
    )
  }
  // A firm key without X-Ledger-Company is a valid credential missing its client: 400, not 401.
  if (kind === "company" && (company === null || company.trim() === "") && FirmKey.strategy.recognises(token)) {
    return byDoor(door, token, asking).pipe(
      Effect.catchIf((error): error is Refused => !SqlError.isSqlError(error), (refused) => FirmCredential.withoutClient(token, asking, refused))
    )
  }
  return byDoor(door, token, asking)
}

/** The first of a door's strategies that recognises the token authenticates it. */
const byDoor = (
  door: Door,
  token: string,
  asking: Asking
): Effect.Effect<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> => {
  const strategy = door.strategies.find((candidate) => candidate.recognises(token))
  return strategy === undefined
    ? Effect.fail(refusedUnknown("The credential is not valid."))
    : strategy.authenticate(token, asking)
}

/** Whether a token is a company API key's, by its shape alone (the pipeline's memory keeps only those). */
export const isApiKey = (token: string): boolean => ApiKey.strategy.recognises(token)

/** Whether the token has the form of an AI app's access token (read nothing). */
export const isAccessToken = (token: string): boolean => OAuthAccessToken.strategy.recognises(token)

/** Whether a strategy of `kind`'s door recognises the token by its form (read nothing). */
export const recognises = (kind: Exclude<Operation.Credential, "none">, token: string): boolean =>
  doors[kind].strategies.some((strategy) => strategy.recognises(token))

/**
 * Whether `token` may be a credential an operation of `kind` accepts, by its form alone (reading
 * nothing): false for no token, or one no strategy of the kind recognises, which the pipeline would
 * refuse without a lookup. HTTP refuses such a request before reading its body (issue 41 item 3).
 */
export const mayAuthenticate = (kind: Operation.Credential, token: string | null, company: string | null): boolean => {
  if (kind === "none") return true
  if (token === null || token === "") return false
  if (kind === "company" && (OAuthAccessToken.strategy.recognises(token) || FirmCredential.mayBe(token, company))) return true
  return recognises(kind, token)
}

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
  asking: Identifying
): Effect.fn.Return<Caller, SqlError.SqlError> {
  const { operation } = asking
  // A keyed write's record under its key is read with the API key: a replay is one statement.
  const replayKey = operation.mode === "K" && asking.idempotencyKey !== null && Idempotency.isValidKey(asking.idempotencyKey)
    ? asking.idempotencyKey
    : null
  const secretHash = asking.batched && replayKey !== null && operation.credential === "company" &&
      asking.credential !== null && isApiKey(asking.credential)
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
    forOperation(operation.credential, asking.credential, {
      now: asking.now,
      idempotencyKey: replayKey,
      secretHash,
      personal: operation.browserSessionOnly
    }, asking.company ?? null)
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
