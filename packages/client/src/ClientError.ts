import { type ErrorType, errorTypes } from "./generated/Operations.ts"

/**
 * Every way a call can fail, as values with a `type` to narrow on. Refusals by the server carry the
 * spec's stable error type (ApiError.errorStatus, which grows as areas add types, copied into
 * generated/Operations.ts); the client adds three of its own for answers that never came or could
 * not be read.
 *
 * Plain `Error` classes with a `_tag`, not Effect's `Data.TaggedError`: the Promise client carries
 * no Effect (docs/decisions/0606-sdk-precomputed-types.md), and Effect code still narrows them with
 * `Effect.catchTag`.
 */

export type ApiErrorType = ErrorType

interface TaggedErrorConstructor<Tag extends string> {
  new<A extends { readonly message: string }>(fields: A): Error & { readonly _tag: Tag } & Readonly<A>
}

const TaggedError = <Tag extends string>(tag: Tag): TaggedErrorConstructor<Tag> =>
  class extends Error {
    readonly _tag = tag
    constructor(fields: { readonly message: string }) {
      super(fields.message)
      Object.assign(this, fields)
      this.name = tag
    }
  } as unknown as TaggedErrorConstructor<Tag>

/** The server refused the call with the spec's error body. */
export class LedgerApiError extends TaggedError("LedgerApiError")<{
  readonly type: ApiErrorType
  readonly status: number
  readonly message: string
  readonly details: Readonly<Record<string, unknown>> | undefined
  /** The Idempotency-Key the call was sent with, to retry it by hand. */
  readonly idempotencyKey: string | null
  readonly operationId: string
}> {}

/** No answer: the connection failed on every attempt. The change may or may not have happened; a retry with the same key is safe. */
export class LedgerNetworkError extends TaggedError("LedgerNetworkError")<{
  readonly type: "network_error"
  readonly message: string
  readonly cause: unknown
  readonly idempotencyKey: string | null
  readonly operationId: string
  readonly attempts: number
}> {}

/** No answer within the timeout on every attempt. A retry with the same key is safe. */
export class LedgerTimeoutError extends TaggedError("LedgerTimeoutError")<{
  readonly type: "timeout"
  readonly message: string
  readonly timeoutMs: number
  readonly idempotencyKey: string | null
  readonly operationId: string
  readonly attempts: number
}> {}

/** An answer the client cannot read as the contract says: not JSON, an unknown error type, or (with validateResponses) a body its schema refuses. */
export class LedgerUnexpectedResponse extends TaggedError("LedgerUnexpectedResponse")<{
  readonly type: "unexpected_response"
  readonly message: string
  readonly status: number
  readonly body: unknown
  readonly operationId: string
}> {}

/** A server refusal of one type: `error.type === "not_found"` narrows a `ClientError` to this. */
export type ApiErrorOf<T extends ApiErrorType> = LedgerApiError & { readonly type: T }

/** One member per error type, so that a test on `type` narrows the union. */
export type AnyApiError = { [T in ApiErrorType]: ApiErrorOf<T> }[ApiErrorType]

/** What every SDK call may fail with. */
export type ClientError = AnyApiError | LedgerNetworkError | LedgerTimeoutError | LedgerUnexpectedResponse

export type ClientErrorType = ClientError["type"]

const knownTypes: ReadonlySet<string> = new Set(errorTypes)

export const isApiErrorType = (type: string): type is ApiErrorType => knownTypes.has(type)

const clientErrorTags: ReadonlySet<string> = new Set([
  "LedgerApiError",
  "LedgerNetworkError",
  "LedgerTimeoutError",
  "LedgerUnexpectedResponse"
])

/**
 * True when `error` is a client error, of `type` when one is given. For the Promise client, whose
 * rejections TypeScript cannot type: `catch (e) { if (isClientError(e, "not_found")) ... }`.
 */
export function isClientError(error: unknown): error is ClientError
export function isClientError<T extends ClientErrorType>(error: unknown, type: T): error is Extract<ClientError, { readonly type: T }>
export function isClientError(error: unknown, type?: string): boolean {
  if (typeof error !== "object" || error === null) return false
  const tag = (error as { _tag?: unknown })._tag
  if (typeof tag !== "string" || !clientErrorTags.has(tag)) return false
  return type === undefined || (error as { type?: unknown }).type === type
}
