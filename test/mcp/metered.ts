import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

/**
 * An MCP client whose every HTTP exchange is counted (issue 40 item 5): the JSON-RPC requests it
 * sends (a message with a method and an id; notifications are counted apart) and the bytes of
 * every answer as the client reads them, tool lists apart. An agent's context is what it reads,
 * so the bytes are the answers' bodies, event streams included.
 */

export type Fetch = (request: Request) => Promise<Response>

/**
 * A hard budget, shared by the clients that spend it: a request past `calls` is not sent, and an
 * answer that takes the bytes past `bytes`, or is itself over `responseBytes`, fails as it is read.
 */
export interface Budget {
  /** JSON-RPC requests (notifications are not counted). */
  readonly calls: number
  /** Bytes of every answer read. */
  readonly bytes: number
  /** Bytes of any one answer. */
  readonly responseBytes: number
  readonly spent: { calls: number; bytes: number }
}

export const newBudget = (limits: Omit<Budget, "spent">): Budget => ({ ...limits, spent: { calls: 0, bytes: 0 } })

export class BudgetExceeded extends Error {}

export interface Meter {
  /** JSON-RPC requests sent, by method (tools/call by tool name: `tools/call get_me`). */
  readonly calls: Array<string>
  notifications: number
  httpRequests: number
  /** Bytes of every answer's body, as read. */
  bytes: number
  /** Bytes of the answers to tools/list. */
  toolListBytes: number
  /** The largest single answer, its bytes and what asked for it. */
  largest: { bytes: number; call: string }
  /** Every answer's bytes and what asked for it, in order. */
  readonly answers: Array<{ readonly call: string; readonly bytes: number }>
  readonly budget: Budget | null
}

export const newMeter = (budget: Budget | null = null): Meter =>
  ({ calls: [], notifications: 0, httpRequests: 0, bytes: 0, toolListBytes: 0, largest: { bytes: 0, call: "" }, answers: [], budget })

/** What a POST carries: one JSON-RPC message or a batch, named for the meter. */
const namesOf = (body: string): Array<{ readonly name: string; readonly request: boolean }> => {
  if (body === "") return []
  const parsed = JSON.parse(body) as unknown
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message: { method?: string; id?: unknown; params?: { name?: string } }) => ({
    name: message.method === "tools/call" ? `tools/call ${message.params?.name}` : String(message.method ?? "response"),
    request: message.id !== undefined && message.method !== undefined
  }))
}

/** Counts the bytes of an answer's body as the client reads it through. */
const counted = (response: Response, meter: Meter, call: string): Response => {
  if (response.body === null) return response
  let bytes = 0
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) => {
      bytes += chunk.byteLength
      meter.bytes += chunk.byteLength
      if (call === "tools/list") meter.toolListBytes += chunk.byteLength
      const budget = meter.budget
      if (budget !== null) {
        budget.spent.bytes += chunk.byteLength
        if (bytes > budget.responseBytes) return controller.error(new BudgetExceeded(`${call} answered over ${budget.responseBytes} bytes`))
        if (budget.spent.bytes > budget.bytes) return controller.error(new BudgetExceeded(`${call} took the bytes read past ${budget.bytes}`))
      }
      controller.enqueue(chunk)
    },
    flush: () => {
      meter.answers.push({ call, bytes })
      if (bytes > meter.largest.bytes) meter.largest = { bytes, call }
    }
  })
  return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** A fetch that counts into `meter`, over `fetch` (the app's handler in process, or the network). */
export const meteredFetch = (fetch: Fetch, meter: Meter): Fetch => async (request) => {
  meter.httpRequests++
  const body = request.method === "POST" ? await request.clone().text() : ""
  const names = namesOf(body)
  for (const { name, request: isRequest } of names) {
    if (!isRequest) {
      meter.notifications++
      continue
    }
    if (meter.budget !== null && ++meter.budget.spent.calls > meter.budget.calls) {
      throw new BudgetExceeded(`${name}: over the budget of ${meter.budget.calls} calls`)
    }
    meter.calls.push(name)
  }
  return counted(await fetch(request), meter, names.length === 1 ? names[0]!.name : `${request.method} ${names.length}`)
}

/** The official SDK client over Streamable HTTP at `url`, every exchange counted into `meter`. */
export const connectMetered = async (
  fetch: Fetch,
  url: string,
  token: string,
  meter: Meter,
  headers: Record<string, string> = {},
  options?: ClientOptions
): Promise<Client> => {
  const client = new Client({ name: "month-end-agent", version: "1.0.0" }, options)
  const metered = meteredFetch(fetch, meter)
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    fetch: (input: string | URL | Request, init?: RequestInit) => metered(new Request(input, init))
  })
  await client.connect(transport)
  return client
}
