import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import type { Operation } from "@ledger/api"
import * as Authenticate from "./Authenticate.ts"
import type { CredentialMemory } from "./batching/CredentialMemory.ts"
import * as Idempotency from "./Idempotency.ts"
import * as Secret from "../kernel/Secret.ts"

/**
 * Who is asking: the first step of the pipeline (Dispatcher.ts), from the engine's memory of API
 * keys when it may (docs/decisions/0713-credentials-remembered-for-group-commit.md), else by the
 * authentication statement.
 */
export interface Caller {
  /** The credential's actor and company, or null for an operation that takes none; else the refusal. */
  readonly authenticated: Result.Result<Authenticate.Authenticated | null, Authenticate.Refused>
  /**
   * The key came from memory, without a statement: only its batch's statement, which checks the
   * key, may answer the request; any other outcome runs the request again, read afresh.
   */
  readonly recalled: boolean
  /** The hash of the secret, when the request may be remembered or recalled; else null. */
  readonly secretHash: string | null
}

export interface Asking {
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
}

export const identify = Effect.fn("Caller.identify")(function*(
  sql: SqlClient.SqlClient,
  credentials: CredentialMemory,
  asking: Asking
): Effect.fn.Return<Caller> {
  const { operation } = asking
  // A keyed write's record under its key is read with the API key: a replay is one statement.
  const replayKey = operation.mode === "K" && asking.idempotencyKey !== null && Idempotency.isValidKey(asking.idempotencyKey)
    ? asking.idempotencyKey
    : null
  const secretHash = asking.batched && replayKey !== null && operation.credential === "company" &&
      asking.credential?.startsWith("ldg_") === true
    ? yield* Secret.hash(asking.credential)
    : null
  // A retry of a write this engine answered lately is not recalled: its statement reads the
  // record and replays it.
  const recalled = secretHash === null || replayKey === null || !asking.recall ||
      credentials.wasAnswered(secretHash, replayKey)
    ? undefined
    : credentials.recall(secretHash, asking.nowMs)
  if (recalled !== undefined) return { authenticated: Result.succeed(recalled), recalled: true, secretHash }
  const authenticated = yield* Effect.result(
    Authenticate.forOperation(operation.credential, asking.credential, asking.now, replayKey, secretHash)
  ).pipe(Effect.provideService(SqlClient.SqlClient, sql))
  if (asking.batched && Result.isSuccess(authenticated) && authenticated.success !== null) {
    credentials.remember(authenticated.success)
  }
  return { authenticated, recalled: false, secretHash }
})
