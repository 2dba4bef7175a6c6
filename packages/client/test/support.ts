import { makeTestLedger, type TestLedger, type TestLedgerOptions } from "@ledger/testkit"

/** A test ledger on PGlite, or on PostgreSQL when DATABASE_URL is set (both run in CI). */
export const testLedger = (options: TestLedgerOptions = {}): Promise<TestLedger> =>
  makeTestLedger({
    ...options,
    ...(process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "" ? {} : { databaseUrl: process.env.DATABASE_URL })
  })

export interface Exchange {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  readonly status: number | null
  readonly responseHeaders: Headers | null
}

/**
 * Wraps a fetch to record every exchange and to break some of them on purpose: `fault` is asked
 * before each request and may answer instead of the server, or after the server answered
 * (`afterServer`: the change is committed, then the connection "drops").
 */
export const instrumentedFetch = (
  inner: typeof globalThis.fetch,
  fault: (request: Request, index: number) => "drop-after-server" | "drop-before-server" | Response | undefined = () => undefined
) => {
  const exchanges: Array<Exchange> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const index = exchanges.length
    const decision = fault(request.clone(), index)
    const record = (status: number | null, responseHeaders: Headers | null) =>
      exchanges.push({ method: request.method, url: request.url, headers: request.headers, status, responseHeaders })
    if (decision === "drop-before-server") {
      record(null, null)
      throw new TypeError("fetch failed: connection reset (injected)")
    }
    if (decision instanceof Response) {
      record(decision.status, decision.headers)
      return decision
    }
    const response = await inner(request)
    // Reading the whole answer first means the server finished, and committed, before the drop.
    const text = await response.text()
    if (decision === "drop-after-server") {
      record(null, null)
      throw new TypeError("fetch failed: socket hang up (injected after the server answered)")
    }
    record(response.status, response.headers)
    return new Response(text, { status: response.status, headers: response.headers })
  }
  return { fetch, exchanges }
}
