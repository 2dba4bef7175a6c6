/**
 * @ledger/client — the typed Ledger SDK.
 *
 * - `createClient` (Promises, over fetch): every operation as a method. This entry imports neither
 *   Effect nor @ledger/api, so it type-checks and bundles light
 *   (docs/decisions/0606-sdk-precomputed-types.md).
 * - `@ledger/client/effect`: the Effect client (`LedgerClient.layer({ baseUrl, token })`, or `make`
 *   over any HttpClient), with everything exported here.
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
export type { Response as CallResponse, RetryEvent, Validator } from "./Fetch.ts"
export { type Download, fromEnvelope as fileFromEnvelope } from "./Files.ts"
export * as IdempotencyKey from "./IdempotencyKey.ts"
export {
  type Answer,
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
