/**
 * @ledger/client/effect — the Effect client, beside everything the main entry offers.
 *
 * `LedgerClient.layer({ baseUrl, token })`, or `make` over any HttpClient; `fromPromiseClient` turns
 * a Promise client's options into an Effect client. This entry brings Effect and the contract's
 * schemas (for `validateResponses`); the main entry does not (docs/decisions/0606-sdk-precomputed-types.md).
 */
import * as Call from "./Call.ts"
import type { Validator } from "./Fetch.ts"
import * as LedgerClientModule from "./LedgerClient.ts"
import type { Client as PromiseClient } from "./PromiseClient.ts"

export * from "./index.ts"
export type { Response as EffectCallResponse, RetryEvent as EffectRetryEvent } from "./Call.ts"
export { type Download as EffectDownload, fromEnvelope as effectFileFromEnvelope } from "./Download.ts"
export { type CallOptions, type Client, LedgerClient, type Options } from "./LedgerClient.ts"
export * as Effect from "./LedgerClient.ts"

/** The schema check behind `validateResponses` (extra fields refused), for the Promise client too. */
export const validator: Validator = (operationId, status, body) => {
  const operation = LedgerClientModule.lookup(operationId)
  return operation === undefined ? null : Call.schemaViolation(operation, status, body)
}

/** The Effect client with a Promise client's options (its `sleep`, if any, waited on as a Promise). */
export const fromPromiseClient = (client: PromiseClient): LedgerClientModule.Client => {
  const { sleep, validateResponses, ...rest } = client.options
  return LedgerClientModule.makeFetch({
    ...rest,
    ...(validateResponses === undefined ? {} : { validateResponses: validateResponses !== false }),
    ...(sleep === undefined ? {} : { sleep: (milliseconds: number) => LedgerClientModule.promiseSleep(sleep, milliseconds) })
  })
}
