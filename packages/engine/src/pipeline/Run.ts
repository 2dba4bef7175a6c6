import { Context, Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError, type Operation } from "@ledger/api"
import { type Actor, operator } from "../kernel/Actor.ts"
import type { Handler, Services } from "../kernel/Handler.ts"
import { Registry } from "../kernel/Registry.ts"
import type { RequestContext } from "../kernel/RequestContext.ts"
import * as Audit from "./Audit.ts"
import type { Authenticated, CompanyState } from "./authenticate/Credential.ts"
import type { Doors } from "./Authenticate.ts"
import type { CredentialMemory } from "./batching/CredentialMemory.ts"
import type { Arrival, GroupCommit } from "./batching/GroupCommit.ts"
import type { RateLimiter } from "./RateLimiter.ts"
import type * as ReadReplica from "../store/ReadReplica.ts"

/**
 * One run of the pipeline, shared by its steps (Admission.ts, then Execution.ts; Dispatcher.ts
 * puts them in order): the invocation, what the steps found so far, and the two ways a step ends
 * a run early, `refuse` (the spec's error body, audited for a known credential) and `again` (a run
 * from memory that may not answer runs afresh).
 */

/** One call of one operation, from HTTP, MCP or an embedding program. */
export interface Invocation {
  readonly operationId: string
  /** Path parameters; strings from a URL are coerced by `coerce`. */
  readonly path: Record<string, unknown>
  readonly query: Record<string, unknown>
  /** The parsed JSON body; undefined when there was none. */
  readonly body: unknown
  /**
   * Why the body could not be read (too large, not JSON, not a JSON media type), when it could
   * not. The refusal comes after authentication, so a known credential's bad body is audited.
   */
  readonly unreadableBody?: ApiError.LedgerError | undefined
  /** The Bearer token, without the word Bearer. */
  readonly credential: string | null
  readonly idempotencyKey: string | null
  readonly agentModel: string | null
  readonly agentRunId: string | null
  /** `X-Ledger-Company`: the client a firm credential acts in. */
  readonly company: string | null
  readonly via: "http" | "mcp" | "engine"
  /** Path and query values are URL strings to be coerced to the schema's types. */
  readonly coerce: boolean
  /**
   * The address the request came from (the socket's peer, or the first forwarded hop when the
   * server trusts its proxy): what per-address limits on public steps count by. Null when unknown.
   */
  readonly clientAddress?: string | null | undefined
  /** The body's exact text and the request's headers, for operations declaring `rawBody`. */
  readonly raw?: RawRequest | undefined
}

/** A request as it came over the wire, for handlers that verify a signature over its bytes. */
export interface RawRequest {
  readonly body: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
}

export interface Outcome {
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

/**
 * How a run of the pipeline authenticates: from the pipeline's memory when it may (`recall`), else
 * by its statement. A run after a run from memory that was not answered has the rate limit's
 * headers of that run (`counted`), which already took the request from its limit.
 */
export interface Authentication {
  readonly recall: boolean
  readonly counted: Readonly<Record<string, string>> | null
  /** The run from memory met its rate limit's first refusal: this run's refusal is that one, and audited. */
  readonly firstRefusal: boolean
}

/** What a handler runs with besides its request: the layer's services. */
export type HandlerServices = Exclude<Services, RequestContext>

/** The pipeline's services, made once with the Dispatcher's layer. */
export interface Pipeline {
  readonly sql: SqlClient.SqlClient
  readonly handlers: ReadonlyMap<string, Handler>
  readonly rateLimiter: RateLimiter["Service"]
  readonly groupCommit: GroupCommit["Service"]
  readonly context: Context.Context<HandlerServices>
  /** API keys recently authenticated, for the writes a group commit carries (CredentialMemory.ts). */
  readonly credentials: CredentialMemory
  /** Where reports read (store/ReadReplica.ts): told of every write, so a company reads its own. */
  readonly replica: ReadReplica.Router
  /** The areas' credential strategies by door (Authenticate.ts). */
  readonly doors: Doors
  /** One run of the pipeline from the start (Dispatcher.ts). */
  readonly attempt: (invocation: Invocation, authentication: Authentication) => Effect.Effect<Outcome, SqlError.SqlError>
}

/** A run once its caller is known (Admission.identify). */
export interface Run {
  /** The invocation as given: a run again starts from it. */
  readonly received: Invocation
  /** As given, less the agent's model and run id when they do not fit in the audit log. */
  readonly invocation: Invocation
  readonly identityIssues: ReadonlyArray<ApiError.Issue>
  readonly operation: Operation.Any
  readonly now: string
  readonly arrival: Arrival
  readonly authentication: Authentication
  /** The key came from memory: only its batch's statement may answer; anything else runs `again`. */
  readonly recalled: boolean
  readonly secretHash: string | null
  readonly authenticated: Authenticated | null
  readonly actor: Actor | null
  readonly company: CompanyState | null
  /** The rate limit's headers, on every answer of the run. */
  readonly headers: Record<string, string>
  /** Set once this run takes the request from its rate limit: a run after it must not again. */
  counted: Readonly<Record<string, string>> | null
}

/** A step's early answer: the run ends with this outcome (Dispatcher.ts turns it back into one). */
export class Answered {
  readonly _tag = "Answered"
  constructor(readonly outcome: Outcome) {}
}

export const answer = <E, R>(outcome: Effect.Effect<Outcome, E, R>): Effect.Effect<never, Answered | E, R> =>
  Effect.flatMap(outcome, (answered) => Effect.fail(new Answered(answered)))

export const errorOutcome = (error: ApiError.LedgerError, headers: Record<string, string> = {}): Outcome => ({
  status: error.status,
  body: error.toBody(),
  headers
})

export const internalError = () => ApiError.fail("internal_error", "Something went wrong on our side. It has been logged.")

/**
 * Refusals by a known credential go into the company's log (spec 5.7), in their own transaction;
 * then into the logs the areas register (kernel/Registry.ts `RefusalLog`: a firm credential's into
 * its firm's hash-chained log, ADR 0903), each in a transaction of its own.
 */
export const auditRefusal = (
  pipeline: Pipeline,
  asked: { readonly operation: Operation.Any; readonly invocation: Invocation; readonly now: string },
  actor: Actor,
  companyId: string | null,
  error: ApiError.LedgerError
): Effect.Effect<void, SqlError.SqlError> =>
  Effect.andThen(
    companyLogRefusal(pipeline, asked, actor, companyId, error),
    Effect.forEach(Context.get(pipeline.context, Registry).refusalLogs ?? [], (log) =>
      log({
        actor,
        companyId,
        action: asked.operation.id,
        via: asked.invocation.via,
        now: asked.now,
        details: refusalDetails(asked, error)
      }).pipe(Effect.provideService(SqlClient.SqlClient, pipeline.sql)), { discard: true })
  )

/** A refusal's event in another log (a firm's): the company log's columns for it, in its details. */
const refusalDetails = (
  asked: { readonly operation: Operation.Any; readonly invocation: Invocation; readonly now: string },
  error: ApiError.LedgerError
): Record<string, unknown> => {
  const { agentModel, agentRunId } = asked.invocation
  const entry = Audit.ofRefusal({ actor: operator, companyId: "", action: asked.operation.id, agentModel, agentRunId, via: asked.invocation.via, now: asked.now, error })
  return {
    outcome: "refused",
    status: entry.status,
    error_type: entry.errorType ?? null,
    ...(agentModel === null ? {} : { agent_model: agentModel }),
    ...(agentRunId === null ? {} : { agent_run_id: agentRunId }),
    ...entry.details
  }
}

const companyLogRefusal = (
  pipeline: Pipeline,
  asked: { readonly operation: Operation.Any; readonly invocation: Invocation; readonly now: string },
  actor: Actor,
  companyId: string | null,
  error: ApiError.LedgerError
): Effect.Effect<void, SqlError.SqlError> =>
  companyId === null ? Effect.void : Audit.record(Audit.ofRefusal({
    actor,
    companyId,
    action: asked.operation.id,
    agentModel: asked.invocation.agentModel,
    agentRunId: asked.invocation.agentRunId,
    via: asked.invocation.via,
    now: asked.now,
    error
  })).pipe(Effect.provideService(SqlClient.SqlClient, pipeline.sql))

/**
 * Runs the request again from the start, its key read afresh: a run from memory ends so when it
 * is not answered by its batch. The key is forgotten, and the request leaves its batch's way.
 */
export const again = (pipeline: Pipeline, run: Run, firstRefusal = false): Effect.Effect<Outcome, SqlError.SqlError> =>
  Effect.suspend(() => {
    if (run.secretHash !== null) pipeline.credentials.forget(run.secretHash)
    return Effect.andThen(
      run.arrival.leave,
      pipeline.attempt(run.received, { recall: false, counted: run.counted, firstRefusal })
    )
  })

/** The spec's error body with the run's headers, audited for a known credential; a run from memory runs again instead. */
export const refuse = (pipeline: Pipeline, run: Run, error: ApiError.LedgerError): Effect.Effect<Outcome, SqlError.SqlError> =>
  run.recalled ? again(pipeline, run) : Effect.as(
    run.actor === null ? Effect.void : auditRefusal(pipeline, run, run.actor, run.company?.companyId ?? null, error),
    errorOutcome(error, run.headers)
  )
