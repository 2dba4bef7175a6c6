import {
  type ClientError,
  isApiErrorType,
  LedgerApiError,
  LedgerNetworkError,
  LedgerTimeoutError,
  LedgerUnexpectedResponse
} from "./ClientError.ts"
import type { Route } from "./generated/Operations.ts"
import { fillPath, queryString, splitInput } from "./Operations.ts"
import * as RetryPolicy from "./RetryPolicy.ts"

/**
 * One call of the Promise client over `fetch` alone: the same request, retries, Idempotency-Key
 * reuse, timeouts and errors as the Effect client's `Call.run`, without Effect, so that a browser
 * bundle of the Promise client carries none of it (docs/decisions/0606-sdk-precomputed-types.md).
 * test/sdk.test.ts and test/reliability.test.ts hold both clients to the same behaviour.
 */

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

/** Checks a success body against its operation's schema: the reason it breaks it, or null. */
export type Validator = (operationId: string, status: number, body: unknown) => string | null

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
  readonly fetch: typeof globalThis.fetch
  readonly sleep: (milliseconds: number) => Promise<void>
  readonly onRetry: ((event: RetryEvent) => void) | undefined
  readonly validate: Validator | null
  readonly signal: AbortSignal | undefined
  /** Reads a success that is not JSON as bytes, whatever its type (a file download keeps every byte). */
  readonly binary: boolean
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

const parseJson = (text: string): { readonly value: unknown } | null => {
  if (text.trim() === "") return { value: null }
  try {
    return { value: JSON.parse(text) }
  } catch {
    return null
  }
}

const errorTypeOf = (body: unknown): string | null => {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined
  const type = typeof error === "object" && error !== null ? (error as { type?: unknown }).type : undefined
  return typeof type === "string" ? type : null
}

interface Request {
  readonly url: string
  readonly init: RequestInit
}

const buildRequest = (
  route: Route,
  input: Readonly<Record<string, unknown>> | undefined,
  settings: Settings,
  idempotencyKey: string | null
): Request => {
  const [method, path, , pathNames, queryNames] = route
  const parts = splitInput(method, new Set(pathNames), new Set(queryNames), input)
  const url = `${settings.baseUrl.replace(/\/+$/, "")}${fillPath(path, parts.path)}${queryString(parts.query)}`
  const headers: Record<string, string> = { accept: "application/json", ...settings.headers }
  if (settings.token !== null) headers.authorization = `Bearer ${settings.token}`
  if (idempotencyKey !== null) headers["idempotency-key"] = idempotencyKey
  if (settings.agentModel !== null) headers["x-agent-model"] = settings.agentModel
  if (settings.agentRunId !== null) headers["x-agent-run-id"] = settings.agentRunId
  if (settings.company !== null) headers["x-ledger-company"] = settings.company
  if (parts.body === undefined) return { url, init: { method, headers } }
  return { url, init: { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(parts.body) } }
}

/** The caller aborted: the call rejects with the signal's reason, never retried. */
class Aborted {
  constructor(readonly reason: unknown) {}
}

const isAborted = (signal: AbortSignal | undefined): signal is AbortSignal => signal?.aborted === true

/** Sends one attempt and reads its whole answer, within the timeout. */
const attempt = async (request: Request, settings: Settings): Promise<Attempt> => {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, settings.timeoutMs)
  const onAbort = () => controller.abort()
  settings.signal?.addEventListener("abort", onAbort, { once: true })
  try {
    const response = await settings.fetch(request.url, { ...request.init, signal: controller.signal })
    const contentType = (response.headers.get("content-type") ?? "").toLowerCase()
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value
    })
    const asText = isJson(contentType) || (!settings.binary && (contentType.startsWith("text/") || contentType === ""))
    const text = asText ? await response.text() : null
    const bytes = asText ? null : new Uint8Array(await response.arrayBuffer())
    return { _tag: "Response", status: response.status, headers, contentType, text, bytes }
  } catch (cause) {
    if (settings.signal?.aborted === true) throw new Aborted(settings.signal.reason)
    return timedOut ? { _tag: "Timeout" } : { _tag: "NetworkFailure", cause }
  } finally {
    clearTimeout(timer)
    settings.signal?.removeEventListener("abort", onAbort)
  }
}

/** The answer as the contract says it must be, or why it is not. */
const interpret = (
  id: string,
  answer: Extract<Attempt, { _tag: "Response" }>,
  settings: Settings,
  idempotencyKey: string | null,
  attempts: number
): Response => {
  const unexpected = (message: string, body: unknown) =>
    new LedgerUnexpectedResponse({ type: "unexpected_response", message, status: answer.status, body, operationId: id })
  const parsed = answer.text === null
    ? { value: answer.bytes as unknown }
    : isJson(answer.contentType)
    ? parseJson(answer.text)
    : { value: answer.text as unknown }
  if (parsed === null) throw unexpected(`The ${answer.status} answer is not valid JSON.`, answer.text)
  const body = parsed.value
  if (answer.status >= 200 && answer.status < 300) {
    if (settings.validate !== null && isJson(answer.contentType)) {
      const violation = settings.validate(id, answer.status, body)
      if (violation !== null) throw unexpected(violation, body)
    }
    return {
      status: answer.status,
      body,
      headers: answer.headers,
      replayed: answer.headers["idempotent-replayed"] === "true",
      idempotencyKey,
      attempts
    }
  }
  const type = errorTypeOf(body)
  if (type === null || !isApiErrorType(type)) throw unexpected(`${id} answered ${answer.status} without a known error type.`, body)
  const error = (body as { error: { message?: unknown; details?: unknown } }).error
  throw new LedgerApiError({
    type,
    status: answer.status,
    message: typeof error.message === "string" ? error.message : type,
    details: typeof error.details === "object" && error.details !== null ? error.details as Record<string, unknown> : undefined,
    idempotencyKey,
    operationId: id
  }) as ClientError
}

const reasonOf = (outcome: Attempt): RetryEvent["reason"] =>
  outcome._tag === "Response" ? `status_${outcome.status}` : outcome._tag === "Timeout" ? "timeout" : "network_error"

/**
 * Runs one call: attempts until one ends in an answer that is not worth retrying, or the retry
 * budget is spent. Every attempt carries the same Idempotency-Key. Rejects with a `ClientError`,
 * or with the signal's reason when the caller aborts.
 */
export const run = async (
  id: string,
  route: Route,
  input: Readonly<Record<string, unknown>> | undefined,
  settings: Settings,
  idempotencyKey: string | null
): Promise<Response> => {
  if (settings.signal?.aborted === true) throw settings.signal.reason
  const request = buildRequest(route, input, settings, idempotencyKey)
  try {
    for (let index = 0;; index++) {
      const outcome = await attempt(request, settings)
      const decision = RetryPolicy.decide(
        index,
        outcome._tag === "Response"
          ? {
            _tag: "Response",
            status: outcome.status,
            errorType: outcome.text !== null && isJson(outcome.contentType) ? errorTypeOf(parseJson(outcome.text)?.value) : null,
            retryAfterMs: RetryPolicy.retryAfterMs(outcome.headers["retry-after"], Date.now())
          }
          : outcome,
        settings.retry,
        Math.random()
      )
      if (decision.retry) {
        settings.onRetry?.({ operationId: id, attempt: index + 1, delayMs: decision.delayMs, reason: reasonOf(outcome), idempotencyKey })
        await settings.sleep(decision.delayMs)
        // The sleep may have ended early because the caller aborted.
        if (isAborted(settings.signal)) throw new Aborted(settings.signal.reason)
        continue
      }
      const attempts = index + 1
      switch (outcome._tag) {
        case "NetworkFailure":
          throw new LedgerNetworkError({
            type: "network_error",
            message: `${id}: no answer after ${attempts} attempt(s): ${String((outcome.cause as { message?: unknown })?.message ?? outcome.cause)}`,
            cause: outcome.cause,
            idempotencyKey,
            operationId: id,
            attempts
          })
        case "Timeout":
          throw new LedgerTimeoutError({
            type: "timeout",
            message: `${id}: no answer within ${settings.timeoutMs} ms after ${attempts} attempt(s).`,
            timeoutMs: settings.timeoutMs,
            idempotencyKey,
            operationId: id,
            attempts
          })
        case "Response":
          return interpret(id, outcome, settings, idempotencyKey, attempts)
      }
    }
  } catch (error) {
    throw error instanceof Aborted ? error.reason : error
  }
}

/** A timer, which an abort cuts short (the call then rejects with the signal's reason). */
export const sleep = (signal: AbortSignal | undefined) => (milliseconds: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener("abort", done)
      resolve()
    }
    signal?.addEventListener("abort", done, { once: true })
  })
