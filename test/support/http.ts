/** One JSON request to an app's fetch, as tests make them; shared by every test app. */

export interface CallOptions {
  /** The Bearer credential; null or absent sends none. */
  readonly token?: string | null
  readonly body?: unknown
  /** Sent as is, instead of `body` as JSON. */
  readonly rawBody?: string
  /** The Idempotency-Key. */
  readonly key?: string
  readonly headers?: Record<string, string>
}

export interface CallResult {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

export type Call = (method: "GET" | "POST" | "DELETE", path: string, options?: CallOptions) => Promise<CallResult>

/** The body as JSON, or as text when it is not JSON (a PDF, a CSV), or null when empty. */
const parseBody = (text: string): unknown => {
  try {
    return text === "" ? null : JSON.parse(text)
  } catch {
    return text
  }
}

export const callOf = (fetch: (request: Request) => Promise<Response>): Call => async (method, path, options = {}) => {
  const headers = new Headers(options.headers)
  if (options.token !== undefined && options.token !== null) headers.set("authorization", `Bearer ${options.token}`)
  if (options.key !== undefined) headers.set("idempotency-key", options.key)
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json")
  const response = await fetch(new Request(`http://ledger.test${path}`, { method, headers, ...(body === undefined ? {} : { body }) }))
  return { status: response.status, body: parseBody(await response.text()), headers: response.headers }
}

/** The body of a 201, or an error naming `what` with the status and body. */
export const expect201 = (what: string, result: { readonly status: number; readonly body: any }) => {
  if (result.status !== 201) throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}
