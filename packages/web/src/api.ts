/**
 * The app's only way to the server: the public /v1 API on the same origin, through the SDK's
 * Promise client (`@ledger/client`), so every call and answer is typed by the contract instead of
 * by hand (issue 42 item 5). The session travels as the HttpOnly `ledger_session` cookie, a
 * person's (`ldgs_`) or, in the accountant's console, a firm member's (`ldgf_`, which names the
 * client it acts in with `X-Ledger-Company`: `ledger.with({ company })`); every write adds the
 * anti-forgery header `X-Ledger-CSRF`, and writes that take one an `Idempotency-Key` (the client's)
 * (docs/web-app.md, docs/decisions/1006-firm-members-sign-in.md).
 */

import { createClient, isClientError, type ItemOf, type OperationId, type OperationOf, type PromiseClient } from "@ledger/client"
import { refusalInWords } from "./words.ts"

export type { PromiseClient as Client } from "@ledger/client"

/** The answer of an operation's main success, as the contract types it. */
export type Success<Id extends OperationId> = OperationOf<Id>["output"]
/** One item of a list operation's page. */
export type Item<Id extends OperationId> = ItemOf<OperationOf<Id>>

/**
 * The client hands its requests to this fetch, which adds what a browser session needs and the SDK
 * does not know: the cookie (`credentials`) and, on a write, the anti-forgery header. A call made
 * with a Bearer credential of its own (the owner-invitation claim) carries no cookie: a request
 * carries exactly one credential.
 */
const sessionFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers)
  const bearer = headers.has("authorization")
  if (!bearer && init?.method !== undefined && init.method !== "GET") headers.set("x-ledger-csrf", "1")
  return fetch(input, { ...init, headers, credentials: bearer ? "omit" : "same-origin" })
}

/**
 * The app's client. Same origin, so paths alone (`baseUrl` empty). No retries: a person sees a
 * refusal or a lost connection at once and chooses to try again, as before the SDK; a sign-in code
 * tried again on its own would spend the person's tries.
 */
export const ledger: PromiseClient = createClient({ baseUrl: "", fetch: sessionFetch, retry: false })

const unreachable = "The server could not be reached. Check your connection and try again."

const foreignMessage = (body: unknown): string | null => {
  const error = typeof body === "object" && body !== null ? (body as { error?: { message?: unknown } }).error : undefined
  return typeof error?.message === "string" ? error.message : null
}

/** The message to show for any failure: a refusal with its field issues and tries left (words.ts). */
export const messageOf = (error: unknown): string => {
  if (isClientError(error)) {
    if (error.type === "network_error" || error.type === "timeout") return unreachable
    // An answer that is not the contract's: an error type this build does not know yet (its own
    // message is still the best words), or a proxy's error page.
    if (error.type === "unexpected_response") return foreignMessage(error.body) ?? `The server answered ${error.status}.`
    return refusalInWords(error)
  }
  return error instanceof Error ? error.message : String(error)
}

/** The status of an API refusal (401, 404, ...), or null for any other failure. */
export const refusalStatus = (error: unknown): number | null =>
  isClientError(error) && error.type !== "network_error" && error.type !== "timeout" && error.type !== "unexpected_response" ? error.status : null
