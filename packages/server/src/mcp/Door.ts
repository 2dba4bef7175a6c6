import { Effect } from "effect"
import { type Dispatcher, type Invocation, Ledger, type Outcome } from "@ledger/engine"

/** What the door reads of an MCP request (Mcp.ts `McpRequest` is one). */
export interface McpRequest {
  readonly dispatcher: Dispatcher["Service"]
  readonly headers: {
    readonly credential: string | null
    readonly agentModel: string | null
    readonly agentRunId: string | null
    readonly company: string | null
    readonly clientAddress?: string | null | undefined
  }
}

/**
 * A read that only says who is asking: `getMe` for a company's credential (or a firm's acting in a
 * client), `getFirm` for a firm's credential that names no client. The dispatcher's own
 * authentication answers it, with its clock; with the caller's address when a refusal is to count
 * against the address's failed attempts.
 */
const asking = (input: McpRequest, operationId: "getMe" | "getFirm", counted: boolean): Invocation => ({
  operationId,
  path: {},
  query: {},
  body: undefined,
  credential: input.headers.credential,
  idempotencyKey: null,
  agentModel: input.headers.agentModel,
  agentRunId: input.headers.agentRunId,
  company: input.headers.company,
  clientAddress: counted ? input.headers.clientAddress ?? null : null,
  via: "mcp",
  coerce: false
})

/**
 * Who is asking, run through the dispatcher like any call (`GET /v1/me`), to choose the tools to
 * list. Not counted: the door (`refusal`) has judged the credential already.
 */
export const whoIsAsking = (input: McpRequest): Effect.Effect<Outcome> =>
  input.dispatcher.execute(asking(input, "getMe", false))

/** Who is asking as a firm (`GET /v1/firm`), for a firm's credential that names no client. Not counted, as `whoIsAsking`. */
export const whoIsAskingForFirm = (input: McpRequest): Effect.Effect<Outcome> =>
  input.dispatcher.execute(asking(input, "getFirm", false))

/** Messages in the body (one, or a batch) that are not tool calls. */
const holdsOtherThanToolCalls = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((message) =>
    (message as { readonly method?: unknown } | null)?.method !== "tools/call")

/** The dispatcher's refusal of the credential for `operationId` when it is 401 or 429 (its failed-attempt limit). */
const refusedFor = (input: McpRequest, operationId: "getMe" | "getFirm", counted: boolean) =>
  Effect.map(input.dispatcher.admits(asking(input, operationId, counted)), (outcome) =>
    outcome !== null && (outcome.status === 401 || outcome.status === 429) ? outcome : null)

/**
 * Whether a presented credential is refused at the door, before the MCP server answers: the
 * dispatcher's refusal (401, or 429 past the failed-attempt limit), or null to go on. Every other
 * message (initialize, tools/list) would answer a bad credential as an anonymous caller, and an
 * app whose access token expired must be told 401 `invalid_token` to refresh it. An API key's
 * tool calls, the hot path of agents, go on without a second authentication: the dispatcher
 * authenticates each call as it runs. A firm's credential that names no client is judged as the
 * firm's (its tools are listed too). A firm key has an API key's form: such a token is tried as a
 * company's first without counting, then as a firm's, whose refusal counts, so a firm's agent does
 * not spend its address's failed attempts by connecting.
 */
export const refusal = (input: McpRequest, parsedBody: unknown): Effect.Effect<Outcome | null> | null => {
  const token = input.headers.credential
  if (token === null || token === "") return null
  if (!holdsOtherThanToolCalls(parsedBody) && Ledger.credentials.isApiKey(token)) return null
  const firmToo = input.headers.company === null && Ledger.credentials.recognises("firm", token)
  if (!firmToo) return refusedFor(input, "getMe", true)
  if (!Ledger.credentials.recognises("company", token)) return refusedFor(input, "getFirm", true)
  return Effect.flatMap(refusedFor(input, "getMe", false), (company) =>
    company === null
      ? Effect.succeed(null)
      : Effect.map(refusedFor(input, "getFirm", true), (firm) => firm === null ? null : firm.status === 429 ? firm : company))
}
