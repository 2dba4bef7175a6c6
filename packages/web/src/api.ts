/**
 * The app's only way to the server: the public /v1 API on the same origin. The session travels as
 * the HttpOnly `ledger_session` cookie (credentials: "same-origin"), a person's (`ldgs_`) or, in
 * the accountant's console, a firm member's (`ldgf_`, which names the client it acts in with
 * `X-Ledger-Company`); every write adds the anti-forgery header `X-Ledger-CSRF` and an
 * `Idempotency-Key` (docs/web-app.md, docs/decisions/1006-firm-members-sign-in.md).
 */

import { refusalInWords } from "./words.ts"

export interface ApiErrorBody {
  readonly type: string
  readonly message: string
  readonly details?: Record<string, unknown>
}

/** A refusal from the API, carrying its error body; `status` 0 when the network failed. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly body: ApiErrorBody) {
    super(body.message)
  }
}

/** Who a call is made as: the browser's session cookie, in the client `company` names for a firm member's. */
export interface Caller {
  readonly kind: "cookie"
  readonly company?: string | null
}

export const cookieCaller: Caller = { kind: "cookie" }

const newKey = () => crypto.randomUUID()

const errorOf = (status: number, payload: unknown): ApiErrorBody => {
  const error = (payload as { error?: Partial<ApiErrorBody> } | null)?.error
  if (error !== undefined && typeof error.message === "string") {
    return { type: String(error.type ?? "error"), message: error.message, ...(error.details === undefined ? {} : { details: error.details }) }
  }
  return { type: "http_error", message: `The server answered ${status}.` }
}

export interface Answer<A> {
  readonly status: number
  readonly body: A
}

/** Calls `/v1…`; resolves with 2xx answers, rejects with `ApiFailure` carrying the error body. */
export const call = async <A = unknown>(
  caller: Caller,
  method: "GET" | "POST",
  path: string,
  body?: unknown
): Promise<Answer<A>> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (caller.company !== undefined && caller.company !== null) headers["x-ledger-company"] = caller.company
  if (method === "POST") {
    headers["content-type"] = "application/json"
    headers["x-ledger-csrf"] = "1"
    headers["idempotency-key"] = newKey()
  }
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {})
    })
  } catch {
    throw new ApiFailure(0, { type: "network_error", message: "The server could not be reached. Check your connection and try again." })
  }
  const text = await response.text()
  let payload: unknown = null
  try {
    payload = text === "" ? null : JSON.parse(text)
  } catch {
    payload = null
  }
  if (!response.ok) throw new ApiFailure(response.status, errorOf(response.status, payload))
  return { status: response.status, body: payload as A }
}

/** The message to show for any failure: a refusal with its field issues and tries left (words.ts). */
export const messageOf = (error: unknown): string =>
  error instanceof ApiFailure ? refusalInWords(error.body) : error instanceof Error ? error.message : String(error)
