import { Cause, Clock, Context, Effect, Exit, Layer, Result, Schema, SchemaIssue } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Catalog, type Operation, Scope } from "@ledger/api"
import { type Actor, isAgent, reference } from "./Actor.ts"
import * as Audit from "./Audit.ts"
import * as Authenticate from "./Authenticate.ts"
import type { Entropy } from "./Entropy.ts"
import type { EngineInfo } from "./EngineInfo.ts"
import type { Handler } from "./Handler.ts"
import * as Idempotency from "./Idempotency.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RequestContext, type RequestInfo } from "./RequestContext.ts"

/** One call of one operation, from HTTP, MCP or an embedding program. */
export interface Invocation {
  readonly operationId: string
  /** Path parameters; strings from a URL are coerced by `coerce`. */
  readonly path: Record<string, unknown>
  readonly query: Record<string, unknown>
  /** The parsed JSON body; undefined when there was none. */
  readonly body: unknown
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
}

export interface Outcome {
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

/** The handler of every operation, by operation id. */
export class Handlers extends Context.Service<Handlers, ReadonlyMap<string, Handler>>()("@ledger/engine/Handlers") {}

const decodeOptions = { onExcessProperty: "error", errors: "all" } as const
const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

type Decoder = (input: unknown) => Result.Result<unknown, Schema.SchemaError>
const decoders = new WeakMap<Schema.Top, Decoder>()
const decoderOf = (schema: Schema.Top): Decoder => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>, decodeOptions) as Decoder
    decoders.set(schema, decoder)
  }
  return decoder
}

const fieldTypes = new WeakMap<Schema.Top, Record<string, string>>()
/** The JSON type of each field of a struct schema, to coerce URL strings before decoding. */
const fieldTypesOf = (schema: Schema.Top): Record<string, string> => {
  let types = fieldTypes.get(schema)
  if (types === undefined) {
    types = {}
    const document = Schema.toJsonSchemaDocument(schema)
    const properties = (document.schema as { properties?: Record<string, { type?: string; anyOf?: Array<{ type?: string }> }> })
      .properties ?? {}
    for (const [name, property] of Object.entries(properties)) {
      const type = property.type ?? property.anyOf?.find((member) => member.type !== "null")?.type
      if (type !== undefined) types[name] = type
    }
    fieldTypes.set(schema, types)
  }
  return types
}

/** URL strings to the JSON values their schema expects; anything else is left for the decoder to refuse. */
export const coerceStrings = (schema: Schema.Top, values: Record<string, unknown>): Record<string, unknown> => {
  const types = fieldTypesOf(schema)
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values)) {
    const type = types[name]
    if (typeof value !== "string") {
      out[name] = value
    } else if (type === "integer" && /^-?\d{1,16}$/.test(value)) {
      out[name] = Number(value)
    } else if (type === "number" && value.trim() !== "" && Number.isFinite(Number(value))) {
      out[name] = Number(value)
    } else if (type === "boolean" && (value === "true" || value === "false")) {
      out[name] = value === "true"
    } else if (type === "array") {
      out[name] = value.split(",")
    } else {
      out[name] = value
    }
  }
  return out
}

const decodePart = (
  part: "path" | "query" | "body",
  schema: Schema.Top | undefined,
  value: unknown
): Result.Result<unknown, ReadonlyArray<ApiError.Issue>> => {
  if (schema === undefined) {
    const empty = value === undefined || (typeof value === "object" && value !== null && Object.keys(value).length === 0)
    return empty
      ? Result.succeed(part === "body" ? {} : {})
      : Result.fail([{ path: [part], message: "Expected no parameters" }])
  }
  const result = decoderOf(schema)(value === undefined ? {} : value)
  if (Result.isSuccess(result)) return Result.succeed(result.success)
  const issues = formatter(result.failure.issue).issues.map((issue) => ({
    path: [part, ...(issue.path ?? []).map((key) => (typeof key === "number" ? key : String(key)))],
    message: issue.message
  }))
  return Result.fail(issues)
}

const errorOutcome = (error: ApiError.LedgerError, headers: Record<string, string> = {}): Outcome => ({
  status: error.status,
  body: error.toBody(),
  headers
})

const isDryRun = (body: unknown): boolean =>
  typeof body === "object" && body !== null && (body as Record<string, unknown>).dry_run === true

export class Dispatcher extends Context.Service<Dispatcher, {
  readonly execute: (invocation: Invocation) => Effect.Effect<Outcome>
}>()("@ledger/engine/Dispatcher") {
  static readonly layer = Layer.effect(Dispatcher)(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const handlers = yield* Handlers
    const rateLimiter = yield* RateLimiter
    const context = yield* Effect.context<SqlClient.SqlClient | Entropy | EngineInfo>()

    const authenticate = (operation: Operation.Any, invocation: Invocation, now: string) => {
      const token = invocation.credential
      switch (operation.credential) {
        case "none":
          return Effect.succeed<Authenticate.Authenticated | null>(null)
        case "operator":
          return token === null
            ? Effect.fail<Authenticate.Refused>({ error: ApiError.fail("unauthorized", "The operator token is required."), known: null })
            : Authenticate.operatorToken(token)
        case "company":
          if (token === null) {
            return Effect.fail<Authenticate.Refused>({
              error: ApiError.fail("unauthorized", "A Bearer credential is required."),
              known: null
            })
          }
          if (token.startsWith("ldg_")) return Authenticate.apiKey(token, now)
          return Effect.fail<Authenticate.Refused>({ error: ApiError.fail("unauthorized", "The credential is not valid."), known: null })
        default:
          return Effect.fail<Authenticate.Refused>({
            error: ApiError.fail("unauthorized", "This credential kind is not accepted here yet."),
            known: null
          })
      }
    }

    /** Refusals by a known credential go into the company's log (spec 5.7), in their own transaction. */
    const auditRefusal = (
      actor: Actor,
      companyId: string | null,
      operation: Operation.Any,
      invocation: Invocation,
      now: string,
      error: ApiError.LedgerError
    ) =>
      companyId === null
        ? Effect.void
        : Audit.record({
          companyId,
          occurredAt: now,
          action: operation.id,
          outcome: "refused",
          status: error.status,
          errorType: error.type,
          actor,
          agentModel: invocation.agentModel,
          agentRunId: invocation.agentRunId,
          via: invocation.via,
          details: { message: error.message }
        }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.orDie)

    const execute = Effect.fn("Dispatcher.execute")(function*(invocation: Invocation): Effect.fn.Return<Outcome> {
      const operation = Catalog.get(invocation.operationId)
      if (operation === undefined) return errorOutcome(ApiError.fail("not_found", "No such operation."))
      const handler = handlers.get(operation.id)
      if (handler === undefined) return errorOutcome(ApiError.fail("not_found", "This operation is not available yet."))

      const nowMs = yield* Clock.currentTimeMillis
      const now = new Date(nowMs).toISOString()

      // 1. Who is asking.
      const authenticated = yield* Effect.result(authenticate(operation, invocation, now)).pipe(
        Effect.provideService(SqlClient.SqlClient, sql)
      )
      if (Result.isFailure(authenticated)) {
        const refused = authenticated.failure
        if (refused.known !== null) {
          yield* auditRefusal(refused.known.actor, refused.known.company?.companyId ?? null, operation, invocation, now, refused.error)
        }
        return errorOutcome(refused.error)
      }
      const actor = authenticated.success?.actor ?? null
      const company = authenticated.success?.company ?? null
      const companyId = company?.companyId ?? null
      const headers: Record<string, string> = {}

      // 2. Rate limit.
      if (actor !== null && company !== null) {
        const verdict = yield* rateLimiter.check(actor, company)
        if (Number.isFinite(verdict.limitPerMinute)) {
          headers["RateLimit-Limit"] = String(verdict.limitPerMinute)
          headers["RateLimit-Remaining"] = String(verdict.remaining)
        }
        if (!verdict.allowed) {
          const error = ApiError.fail("rate_limited", `Rate limit of ${verdict.limitPerMinute} requests a minute reached.`, {
            limit_per_minute: verdict.limitPerMinute,
            retry_after_seconds: verdict.retryAfterSeconds
          })
          return errorOutcome(error, { ...headers, "Retry-After": String(verdict.retryAfterSeconds) })
        }
      }

      const refuse = (error: ApiError.LedgerError) =>
        Effect.as(
          actor === null ? Effect.void : auditRefusal(actor, companyId, operation, invocation, now, error),
          errorOutcome(error, headers)
        )

      // 3. Scope, people-only, agent identity, kill switch.
      if (actor !== null && operation.credential === "company") {
        if (!Scope.satisfies(actor.scopes, operation.scope)) {
          return yield* refuse(ApiError.fail("insufficient_scope", `This operation needs the ${operation.scope} scope.`, {
            required_scope: operation.scope
          }))
        }
        if (operation.peopleOnly && !actor.isPerson) {
          return yield* refuse(ApiError.fail("insufficient_scope", "Only a person may do this."))
        }
        if (operation.mode !== "R" && isAgent(actor)) {
          if (invocation.agentModel === null || invocation.agentModel.trim() === "") {
            return yield* refuse(ApiError.fail(
              "agent_model_required",
              "Agent writes must name the model in X-Agent-Model (MCP: _meta dev.ledger/model)."
            ))
          }
          if (company?.killSwitchSuspended === true) {
            return yield* refuse(ApiError.fail("kill_switch_active", "Agent writes are suspended by the company's kill switch."))
          }
        }
      }

      // 4. The request itself.
      const pathValues = invocation.coerce && operation.pathParams !== undefined
        ? coerceStrings(operation.pathParams, invocation.path)
        : invocation.path
      const queryValues = invocation.coerce && operation.query !== undefined
        ? coerceStrings(operation.query, invocation.query)
        : invocation.query
      const issues: Array<ApiError.Issue> = []
      const decoded: Record<"path" | "query" | "body", unknown> = { path: {}, query: {}, body: {} }
      for (
        const [part, schema, value] of [
          ["path", operation.pathParams, pathValues],
          ["query", operation.query, queryValues],
          ["body", operation.body, operation.method === "GET" ? undefined : invocation.body]
        ] as const
      ) {
        const result = decodePart(part, schema, value)
        if (Result.isSuccess(result)) decoded[part] = result.success
        else issues.push(...result.failure)
      }
      if (issues.length > 0) return yield* refuse(ApiError.invalidRequest(issues))

      // 5. Idempotency key.
      const dryRun = isDryRun(decoded.body)
      const needsKey = operation.mode === "K" && !dryRun
      let idempotencyKey: string | null = null
      if (needsKey) {
        if (invocation.idempotencyKey === null) {
          return yield* refuse(ApiError.fail("idempotency_key_required", "This write needs an Idempotency-Key."))
        }
        const checked = yield* Effect.result(Idempotency.checkKey(invocation.idempotencyKey))
        if (Result.isFailure(checked)) return yield* refuse(checked.failure)
        idempotencyKey = checked.success
      }

      const request: RequestInfo = {
        actor: actor ?? { ...anonymous },
        companyId,
        operationId: operation.id,
        via: invocation.via,
        now,
        today: now.slice(0, 10),
        agentModel: invocation.agentModel,
        agentRunId: invocation.agentRunId,
        idempotencyKey
      }
      const defaultStatus = Number(Object.keys(operation.responses).find((status) => operation.responses[Number(status)] === operation.success) ?? 200)
      const run = handler({ path: decoded.path, query: decoded.query, body: decoded.body }).pipe(
        Effect.provideService(RequestContext, request),
        Effect.provide(context)
      )

      // 6. Reads run as they are; writes run in one transaction with their audit event and key.
      if (operation.mode === "R" || actor === null) {
        const exit = yield* Effect.exit(run)
        if (Exit.isSuccess(exit)) return { status: exit.value.status ?? defaultStatus, body: exit.value.body, headers }
        return yield* failure(exit.cause)
      }

      const claim: Idempotency.Claim | null = idempotencyKey === null ? null : {
        tenant: companyId === null ? actor.type : `company:${companyId}`,
        principal: reference(actor),
        key: idempotencyKey,
        operation: operation.id,
        request: { path: decoded.path, query: decoded.query, body: decoded.body },
        now
      }
      const transaction = Effect.gen(function*() {
        if (claim !== null) {
          const claimed = yield* Idempotency.claim(claim)
          if (claimed._tag === "Replay") return { replay: true, status: claimed.status, body: claimed.body }
        }
        const result = yield* run
        const status = result.status ?? defaultStatus
        const auditCompany = result.audit?.companyId ?? companyId
        // A dry run writes nothing, not even its audit event.
        if (auditCompany !== null && !dryRun) {
          yield* Audit.record({
            companyId: auditCompany,
            occurredAt: now,
            action: operation.id,
            outcome: "ok",
            status,
            actor,
            agentModel: invocation.agentModel,
            agentRunId: invocation.agentRunId,
            targetType: result.audit?.targetType ?? null,
            targetId: result.audit?.targetId ?? null,
            reason: result.audit?.reason ?? null,
            via: invocation.via,
            details: { ...result.audit?.details, ...(idempotencyKey === null ? {} : { idempotency_key: idempotencyKey }) }
          }).pipe(Effect.orDie)
        }
        if (claim !== null) yield* Idempotency.complete(claim, status, result.body).pipe(Effect.orDie)
        return { replay: false, status, body: result.body }
      })
      const exit = yield* Effect.exit(sql.withTransaction(transaction).pipe(Effect.provide(context)))
      if (Exit.isSuccess(exit)) {
        return {
          status: exit.value.status,
          body: exit.value.body,
          headers: exit.value.replay ? { ...headers, "Idempotent-Replayed": "true" } : headers
        }
      }
      return yield* failure(exit.cause, (error) => refuse(error))

      function failure(
        cause: Cause.Cause<unknown>,
        onError: (error: ApiError.LedgerError) => Effect.Effect<Outcome> = (error) => Effect.succeed(errorOutcome(error, headers))
      ): Effect.Effect<Outcome> {
        const error = Cause.findErrorOption(cause)
        if (error._tag === "Some" && error.value instanceof ApiError.LedgerError) return onError(error.value)
        return Effect.as(
          Effect.logError("Unexpected failure", cause),
          errorOutcome(ApiError.fail("internal_error", "Something went wrong on our side. It has been logged."), headers)
        )
      }
    })

    return Dispatcher.of({ execute })
  }))
}

const anonymous: Actor = {
  type: "user",
  id: null,
  name: "anonymous",
  role: null,
  companyId: null,
  scopes: [],
  isPerson: false,
  keyId: null,
  credentialKind: "none",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: null
}
