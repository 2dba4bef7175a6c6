import { Clock, Effect, Option, Random, Result, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import type { Operation } from "@ledger/api"
import {
  type ClientError,
  isApiErrorType,
  LedgerApiError,
  LedgerNetworkError,
  LedgerTimeoutError,
  LedgerUnexpectedResponse
} from "./ClientError.ts"
import { fillPath, queryString, splitInput } from "./Operations.ts"
import * as RetryPolicy from "./RetryPolicy.ts"

/**
 * One SDK call: the request built from the operation and the flat input, sent with retries that
 * reuse one Idempotency-Key, and the answer read as the contract says.
 */

/** Everything a call is sent with, after client options and call options are merged. */
export interface Settings {
  readonly baseUrl: string
  readonly token: string | null
  readonly agentModel: string | null
  readonly agentRunId: string | null
  readonly company: string | null
  readonly headers: Readonly<Record<string, string>>
  readonly retry: RetryPolicy.RetryOptions
  readonly timeoutMs: number
  readonly validateResponses: boolean
  readonly fetch: typeof globalThis.fetch | undefined
  readonly tracePropagation: boolean
  readonly sleep: (milliseconds: number) => Effect.Effect<void>
  readonly onRetry: ((event: RetryEvent) => void) | undefined
  /** Reads a success that is not JSON as bytes, whatever its type (a file download keeps every byte). */
  readonly binary?: boolean | undefined
}

/** Told before each retry: what failed and how long the client waits. */
export interface RetryEvent {
  readonly operationId: string
  /** The attempt that failed: 1 for the first. */
  readonly attempt: number
  readonly delayMs: number
  readonly reason: "network_error" | "timeout" | `status_${number}`
  readonly idempotencyKey: string | null
}

/** A successful answer with what came with it. */
export interface Response<Body = unknown> {
  readonly status: number
  readonly body: Body
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>
  /** The server replayed the first result of this Idempotency-Key (`Idempotent-Replayed: true`). */
  readonly replayed: boolean
  readonly idempotencyKey: string | null
  readonly attempts: number
}

type Attempt =
  | { readonly _tag: "NetworkFailure"; readonly cause: unknown }
  | { readonly _tag: "Timeout" }
  | {
    readonly _tag: "Response"
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    readonly contentType: string
    readonly text: string | null
    readonly bytes: Uint8Array | null
  }

const isJson = (contentType: string) => /^application\/([a-z.+-]*\+)?json\b/i.test(contentType)

const readBody = (response: HttpClientResponse.HttpClientResponse, contentType: string, binary: boolean) =>
  isJson(contentType) || (!binary && (contentType.startsWith("text/") || contentType === ""))
    ? Effect.map(response.text, (text) => ({ text, bytes: null }))
    : Effect.map(response.arrayBuffer, (buffer) => ({ text: null, bytes: new Uint8Array(buffer) }))

const parseJson = (text: string): Option.Option<unknown> => {
  if (text.trim() === "") return Option.some(null)
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

const errorTypeOf = (body: unknown): string | null => {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined
  const type = typeof error === "object" && error !== null ? (error as { type?: unknown }).type : undefined
  return typeof type === "string" ? type : null
}

/** Sends one attempt and reads its whole answer, within the timeout. */
const attempt = (
  http: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  settings: Settings
): Effect.Effect<Attempt> => {
  const exchange = Effect.gen(function*() {
    const response = yield* http.execute(request)
    const contentType = (response.headers["content-type"] ?? "").toLowerCase()
    const body = yield* readBody(response, contentType, settings.binary === true)
    return {
      _tag: "Response" as const,
      status: response.status,
      headers: response.headers as Readonly<Record<string, string>>,
      contentType,
      ...body
    }
  })
  const configured = exchange.pipe(
    Effect.provideService(HttpClient.TracerPropagationEnabled, settings.tracePropagation),
    settings.fetch === undefined ? (effect) => effect : Effect.provideService(FetchHttpClient.Fetch, settings.fetch)
  )
  return configured.pipe(
    Effect.timeoutOption(settings.timeoutMs),
    Effect.map(Option.getOrElse((): Attempt => ({ _tag: "Timeout" }))),
    Effect.catch((cause): Effect.Effect<Attempt> => Effect.succeed({ _tag: "NetworkFailure", cause }))
  )
}

const buildRequest = (
  operation: Operation.Any,
  input: Readonly<Record<string, unknown>> | undefined,
  settings: Settings,
  idempotencyKey: string | null
): HttpClientRequest.HttpClientRequest => {
  const parts = splitInput(operation.method, fieldNames(operation.pathParams), fieldNames(operation.query), input)
  const url = `${settings.baseUrl.replace(/\/+$/, "")}${fillPath(operation.path, parts.path)}${queryString(parts.query)}`
  const headers: Record<string, string> = { accept: "application/json", ...settings.headers }
  if (settings.token !== null) headers.authorization = `Bearer ${settings.token}`
  if (idempotencyKey !== null) headers["idempotency-key"] = idempotencyKey
  if (settings.agentModel !== null) headers["x-agent-model"] = settings.agentModel
  if (settings.agentRunId !== null) headers["x-agent-run-id"] = settings.agentRunId
  if (settings.company !== null) headers["x-ledger-company"] = settings.company
  const request = HttpClientRequest.make(operation.method)(url, { headers })
  return parts.body === undefined ? request : HttpClientRequest.bodyText(request, JSON.stringify(parts.body), "application/json")
}

const fieldNameCache = new WeakMap<Schema.Top, ReadonlySet<string>>()

/** The field names of a struct schema (path and query parameters are always structs). */
const fieldNames = (schema: Schema.Top | undefined): ReadonlySet<string> => {
  if (schema === undefined) return new Set()
  let names = fieldNameCache.get(schema)
  if (names === undefined) {
    const fields = (schema as unknown as { readonly fields?: Record<string, unknown> }).fields
    names = new Set(fields === undefined ? [] : Object.keys(fields))
    fieldNameCache.set(schema, names)
  }
  return names
}

/**
 * Why a success body breaks its operation's schema (extra fields refused), or null when it holds:
 * `validateResponses` of both clients.
 */
export const schemaViolation = (operation: Operation.Any, status: number, body: unknown): string | null => {
  const schema = operation.responses[status]
  if (schema === undefined) return `${operation.id} does not document a ${status} answer.`
  const decoded = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>, validationOptions)(body)
  return Result.isFailure(decoded) ? `The ${status} body of ${operation.id} does not match its schema: ${decoded.failure.message}` : null
}

const validationOptions = { onExcessProperty: "error", errors: "all" } as const

/** The answer as the contract says it must be, or why it is not. */
const interpret = (
  operation: Operation.Any,
  answer: Extract<Attempt, { _tag: "Response" }>,
  settings: Settings,
  idempotencyKey: string | null,
  attempts: number
): Result.Result<Response, ClientError> => {
  const unexpected = (message: string, body: unknown) =>
    Result.fail(new LedgerUnexpectedResponse({ type: "unexpected_response", message, status: answer.status, body, operationId: operation.id }))
  const parsed = answer.text === null
    ? Option.some<unknown>(answer.bytes)
    : isJson(answer.contentType)
    ? parseJson(answer.text)
    : Option.some<unknown>(answer.text)
  if (Option.isNone(parsed)) return unexpected(`The ${answer.status} answer is not valid JSON.`, answer.text)
  const body = parsed.value
  if (answer.status >= 200 && answer.status < 300) {
    if (settings.validateResponses && isJson(answer.contentType)) {
      const violation = schemaViolation(operation, answer.status, body)
      if (violation !== null) return unexpected(violation, body)
    }
    return Result.succeed({
      status: answer.status,
      body,
      headers: answer.headers,
      replayed: answer.headers["idempotent-replayed"] === "true",
      idempotencyKey,
      attempts
    })
  }
  const type = errorTypeOf(body)
  if (type === null || !isApiErrorType(type)) {
    return unexpected(`${operation.id} answered ${answer.status} without a known error type.`, body)
  }
  const error = (body as { error: { message?: unknown; details?: unknown } }).error
  return Result.fail(
    new LedgerApiError({
      type,
      status: answer.status,
      message: typeof error.message === "string" ? error.message : type,
      details: typeof error.details === "object" && error.details !== null
        ? error.details as Record<string, unknown>
        : undefined,
      idempotencyKey,
      operationId: operation.id
    }) as ClientError
  )
}

const reasonOf = (outcome: Attempt): RetryEvent["reason"] =>
  outcome._tag === "Response" ? `status_${outcome.status}` : outcome._tag === "Timeout" ? "timeout" : "network_error"

/**
 * Runs one call: attempts until one ends in an answer that is not worth retrying, or the retry
 * budget is spent. Every attempt carries the same Idempotency-Key.
 */
export const run = (
  http: HttpClient.HttpClient,
  operation: Operation.Any,
  input: Readonly<Record<string, unknown>> | undefined,
  settings: Settings,
  idempotencyKey: string | null
): Effect.Effect<Response, ClientError> =>
  Effect.gen(function*() {
    const request = yield* Effect.try({
      try: () => buildRequest(operation, input, settings, idempotencyKey),
      catch: (cause) => cause
    }).pipe(Effect.orDie)
    for (let index = 0;; index++) {
      const outcome = yield* attempt(http, request, settings)
      const nowMs = yield* Clock.currentTimeMillis
      const random = yield* Random.next
      const decision = RetryPolicy.decide(
        index,
        outcome._tag === "Response"
          ? {
            _tag: "Response",
            status: outcome.status,
            errorType: outcome.text !== null && isJson(outcome.contentType)
              ? errorTypeOf(Option.getOrNull(parseJson(outcome.text)))
              : null,
            retryAfterMs: RetryPolicy.retryAfterMs(outcome.headers["retry-after"], nowMs)
          }
          : outcome,
        settings.retry,
        random
      )
      if (decision.retry) {
        settings.onRetry?.({
          operationId: operation.id,
          attempt: index + 1,
          delayMs: decision.delayMs,
          reason: reasonOf(outcome),
          idempotencyKey
        })
        yield* settings.sleep(decision.delayMs)
        continue
      }
      const attempts = index + 1
      switch (outcome._tag) {
        case "NetworkFailure":
          return yield* Effect.fail(new LedgerNetworkError({
            type: "network_error",
            message: `${operation.id}: no answer after ${attempts} attempt(s): ${String((outcome.cause as { message?: unknown })?.message ?? outcome.cause)}`,
            cause: outcome.cause,
            idempotencyKey,
            operationId: operation.id,
            attempts
          }))
        case "Timeout":
          return yield* Effect.fail(new LedgerTimeoutError({
            type: "timeout",
            message: `${operation.id}: no answer within ${settings.timeoutMs} ms after ${attempts} attempt(s).`,
            timeoutMs: settings.timeoutMs,
            idempotencyKey,
            operationId: operation.id,
            attempts
          }))
        case "Response": {
          const result = interpret(operation, outcome, settings, idempotencyKey, attempts)
          return Result.isSuccess(result) ? result.success : yield* Effect.fail(result.failure)
        }
      }
    }
  })
