/**
 * @ledger/client — the typed Ledger SDK.
 *
 * - `LedgerClient` (Effect): `LedgerClient.layer({ baseUrl, token })`, or `make` over any HttpClient.
 * - `createClient` (Promises): the same calls for code that does not use Effect.
 *
 * Methods are the catalog's operation ids, each taking one flat input (path, query and body fields
 * together, as the MCP tools do). `K` calls carry a fresh Idempotency-Key, reused by every retry.
 */
export * as ClientError from "./ClientError.ts"
export {
  type ApiErrorOf,
  type ClientError as AnyClientError,
  type ClientErrorType,
  isClientError,
  LedgerApiError,
  LedgerNetworkError,
  LedgerTimeoutError,
  LedgerUnexpectedResponse
} from "./ClientError.ts"
export type { Response as CallResponse, RetryEvent } from "./Call.ts"
export * as IdempotencyKey from "./IdempotencyKey.ts"
export { type CallOptions, type Client, LedgerClient, type Options } from "./LedgerClient.ts"
export * as Effect from "./LedgerClient.ts"
export {
  type DryRunResult,
  type Input,
  isDryRun,
  isPendingApproval,
  type ItemOf,
  type ListOperationId,
  type OperationId,
  type OperationOf,
  type Output,
  type PendingApproval
} from "./Operations.ts"
export {
  type CallOptions as PromiseCallOptions,
  type Client as PromiseClient,
  createClient,
  type Options as PromiseOptions
} from "./PromiseClient.ts"
export * as RetryPolicy from "./RetryPolicy.ts"
export * as Webhooks from "./Webhooks.ts"
