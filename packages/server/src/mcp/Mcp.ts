import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js"
import { Clock, Effect } from "effect"
import { ApiError, type Scope } from "@ledger/api"
import type { Dispatcher, Invocation } from "@ledger/engine"
import { Engine } from "../EngineVersion.ts"
import * as Discovery from "./Discovery.ts"
import * as Door from "./Door.ts"
import * as Hints from "./Hints.ts"
import * as JsonRpcChecks from "./JsonRpcChecks.ts"
import * as Listing from "./Listing.ts"
import * as Resources from "./Resources.ts"
import type * as Sessions from "./Sessions.ts"
import { type ToolEntry, toolsOf, withoutOutputSchema } from "./Tools.ts"
import * as Toolsets from "./Toolsets.ts"

const text = (value: unknown) => JSON.stringify(value)

const metaString = (meta: Record<string, unknown> | undefined, key: string): string | null => {
  const value = meta?.[key]
  return typeof value === "string" && value !== "" ? value : null
}

/** Runs a tool call's Effect with the server's runtime, interrupted when `signal` aborts. */
type RunEffect = <A>(effect: Effect.Effect<A>, signal: AbortSignal) => Promise<A>

/** What one MCP request carries besides its JSON-RPC message. */
export interface McpRequest {
  readonly request: Request
  readonly parsedBody: unknown
  readonly dispatcher: Dispatcher["Service"]
  readonly headers: {
    readonly credential: string | null
    readonly agentModel: string | null
    readonly agentRunId: string | null
    readonly company: string | null
    /** The caller's address (the socket's, or X-Forwarded-For behind a trusted proxy): failed authentications count against it. */
    readonly clientAddress?: string | null | undefined
    /** `?toolsets=` on the MCP address or `X-Ledger-Toolsets`: the areas whose tools to list. */
    readonly toolsets?: string | null | undefined
    /** `?output_schemas=none` on the MCP address or `X-Ledger-Output-Schemas: none`: list tools without output schemas. */
    readonly outputSchemas?: string | null | undefined
    /** `Mcp-Session-Id`: the session whose toolsets to list (Sessions.ts). */
    readonly sessionId?: string | null | undefined
    /** The client's own Accept took `text/event-stream`: a toggle's answer may then carry `notifications/tools/list_changed`. */
    readonly acceptsEventStream?: boolean | undefined
  }
  /** The process's MCP sessions; without it, no session is opened and the list follows the address alone. */
  readonly sessions?: Sessions.Store | undefined
}

/**
 * Serves one MCP request: stateless Streamable HTTP with JSON responses. Each call runs through
 * the same `Dispatcher` as HTTP, so credential, scope, idempotency and audit are the same.
 *
 * The SDK calls its handlers as promises; each tool call's Effect runs with the context of the
 * fiber serving the request (its services, logger, tracer and span), not a runtime of its own,
 * and is interrupted when that fiber is (the client went away) or the client cancels the call.
 */
export const handle = Effect.fn("Mcp.handle")(function*(input: McpRequest) {
  const context = yield* Effect.context<never>()
  const runWith = Effect.runPromiseWith(context)
  const now = yield* Clock.currentTimeMillis
  return yield* Effect.promise((served) => {
    const run: RunEffect = (effect, called) => runWith(effect, { signal: AbortSignal.any([served, called]) })
    return serve(input, run, now)
  })
})

/** The tool call's invocation of its operation: arguments split into path, query and body by the operation's fields. */
const invocationOf = (entry: ToolEntry, call: CallToolRequest, headers: McpRequest["headers"]): Invocation => {
  const meta = call.params._meta as Record<string, unknown> | undefined
  const args = { ...(call.params.arguments ?? {}) } as Record<string, unknown>
  const keyFromArgs = typeof args.idempotency_key === "string" ? args.idempotency_key : null
  delete args.idempotency_key
  const path: Record<string, unknown> = {}
  const query: Record<string, unknown> = {}
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(args)) {
    if (entry.pathFields.has(name)) path[name] = value
    else if (entry.queryFields.has(name) || entry.operation.method === "GET") query[name] = value
    else body[name] = value
  }
  return {
    operationId: entry.operation.id,
    path,
    query,
    body: entry.operation.method === "POST" ? body : undefined,
    credential: headers.credential,
    idempotencyKey: keyFromArgs ?? metaString(meta, "dev.ledger/idempotency_key"),
    agentModel: metaString(meta, "dev.ledger/model") ?? headers.agentModel,
    agentRunId: metaString(meta, "dev.ledger/run_id") ?? headers.agentRunId,
    company: metaString(meta, "dev.ledger/company") ?? headers.company,
    clientAddress: headers.clientAddress ?? null,
    via: "mcp",
    coerce: false
  }
}

/**
 * The pipeline's errors name the HTTP header; a tool caller passes the key as the `idempotency_key`
 * argument, so its refusals name that instead (the type stays the same).
 */
const inMcpWords = <A extends { readonly body: unknown }>(outcome: A): A => {
  const error = (outcome.body as { error?: { type?: unknown; message?: unknown } } | null)?.error
  if (typeof error?.message !== "string" || !error.message.includes("Idempotency-Key")) return outcome
  const message = error.type === "idempotency_key_required"
    ? "This write needs an idempotency_key argument: a fresh unique value per intended change, the same one when you retry it."
    : error.message.replaceAll("Idempotency-Key", "idempotency_key")
  return { ...outcome, body: { ...(outcome.body as object), error: { ...error, message } } }
}

/**
 * Who is asking, through the pipeline's own `GET /v1/me`, or `GET /v1/firm` for a firm's
 * credential that names no client; null when neither answers.
 */
const callerOf = (input: McpRequest): Effect.Effect<Toolsets.Caller | null> =>
  Effect.flatMap(Door.whoIsAsking(input), (outcome) => {
    if (outcome.status === 200) {
      const body = outcome.body as {
        readonly principal_type: string
        readonly id: number | null
        readonly scopes: ReadonlyArray<Scope.Scope>
        readonly company: { readonly company_id: string }
      }
      return Effect.succeed({
        principalType: body.principal_type,
        scopes: body.scopes,
        identity: `${body.principal_type}:${body.id ?? ""}@${body.company.company_id}`
      })
    }
    if (input.headers.company !== null || input.headers.credential === null) return Effect.succeed(null)
    return Effect.map(Door.whoIsAskingForFirm(input), (firm): Toolsets.Caller | null => {
      if (firm.status !== 200) return null
      const body = firm.body as {
        readonly firm: { readonly id: string | number }
        readonly principal: { readonly type: string; readonly id: number; readonly scopes: ReadonlyArray<Scope.Scope> }
      }
      return {
        principalType: body.principal.type,
        scopes: body.principal.scopes,
        firm: true,
        identity: `${body.principal.type}:${body.principal.id}@firm:${body.firm.id}`
      }
    })
  })

/** Whether the body is one `tools/call` of a toggle (directly or through call_tool), whose answer may carry list_changed. */
const togglesTools = (body: unknown): boolean => {
  const message = body as { readonly method?: unknown; readonly params?: { readonly name?: unknown; readonly arguments?: { readonly name?: unknown } } } | null
  if (Array.isArray(body) || message?.method !== "tools/call") return false
  const name = message.params?.name === Discovery.callTool ? message.params.arguments?.name : message.params?.name
  return typeof name === "string" && Discovery.toggles.has(name)
}

/** Whether the body is an `initialize` request, whose answer opens a session. */
const initializes = (body: unknown): boolean =>
  !Array.isArray(body) && (body as { readonly method?: unknown } | null)?.method === "initialize"

/** Calls the catalog's tool `name` as the pipeline would over HTTP. */
const callCatalog = async (input: McpRequest, run: RunEffect, name: string, call: CallToolRequest, signal: AbortSignal) => {
  const entry = toolsOf().get(name)
  if (entry === undefined) {
    return Listing.refusedWith(ApiError.fail("not_found", `No tool named ${name}. list_toolsets names every tool you may call.`).toBody())
  }
  const outcome = inMcpWords(await run(input.dispatcher.execute(invocationOf(entry, call, input.headers)), signal))
  // Matches the tool's outputSchema: an object answer as it is, any other under `result`.
  const structured = (typeof outcome.body === "object" && outcome.body !== null && !Array.isArray(outcome.body) &&
      !(entry.wrapped && outcome.status < 400)
    ? outcome.body
    : { result: outcome.body }) as Record<string, unknown>
  // The next step, for a model (a second text block) and a program (_meta): the body stays the API's.
  const hint = Listing.withHint(Hints.forAnswer(outcome.status, outcome.body))
  return {
    ...(outcome.status >= 400 ? { isError: true } : {}),
    content: [{ type: "text" as const, text: text(outcome.body) }, ...hint.blocks],
    structuredContent: structured,
    _meta: { "dev.ledger/status": outcome.status, ...hint.meta }
  }
}

/**
 * The call a `tools/call` makes: itself, or for `call_tool` the same call addressed to the named
 * tool (its arguments, the outer call's `_meta`); a refusal when call_tool's input is not that.
 */
const addressed = (call: CallToolRequest) => {
  const args = (call.params.arguments ?? {}) as Record<string, unknown>
  if (call.params.name !== Discovery.callTool) return { name: call.params.name, args, target: call }
  const inner = args.arguments
  if (typeof args.name !== "string" || args.name === Discovery.callTool ||
    (inner !== undefined && (typeof inner !== "object" || inner === null || Array.isArray(inner)))) {
    return { refused: Listing.refusedWith(ApiError.fail("invalid_request", "call_tool takes name (a tool other than call_tool) and arguments (an object).").toBody()) }
  }
  const innerArgs = (inner ?? {}) as Record<string, unknown>
  return { name: args.name, args: innerArgs, target: { ...call, params: { ...call.params, name: args.name, arguments: innerArgs } } }
}

/**
 * Hands the request to the SDK's transport: an event stream for a toggle when the client takes one
 * (so list_changed reaches it before the answer), plain JSON for every other answer; the answer
 * to `initialize` opens a session.
 */
const respond = (server: Server, input: McpRequest, opened: string | null): Promise<Response> => {
  const streamed = input.headers.acceptsEventStream === true && togglesTools(input.parsedBody)
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !streamed })
  return server.connect(transport).then(() =>
    transport.handleRequest(input.request, { parsedBody: input.parsedBody }).then(async (response) => {
      if (opened === null && !streamed) return response
      const headers = new Headers(response.headers)
      if (opened !== null && response.status === 200) headers.set("mcp-session-id", opened)
      // An event stream ends once the call's answer is written (the notification before it): read
      // whole here, so the server is closed after it, not while the handler still writes.
      const body = streamed ? await response.text() : response.body
      return new Response(body, { status: response.status, statusText: response.statusText, headers })
    }).finally(() => {
      void server.close()
    })
  )
}

/**
 * One JSON Schema validator for every request's Server (issue 43): without it the SDK's Server makes
 * a fresh Ajv with its formats in its constructor, which was 29% of an MCP posting's CPU
 * (docs/profiles/). The SDK compiles with it only for elicitation, which Ledger never asks for, so
 * the instance's compiled-schema cache does not grow; tool arguments are checked by the Dispatcher.
 */
let validator: AjvJsonSchemaValidator | undefined
const serverInfo = { name: "ledger", version: Engine.serverVersion }

/**
 * A Server per request: stateless Streamable HTTP connects one transport to a Server at a time, and
 * concurrent requests would share it; the construction left (maps and handler registrations) is cheap.
 */
const newServer = () =>
  new Server(serverInfo, {
    capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
    instructions: Toolsets.instructions,
    jsonSchemaValidator: validator ??= new AjvJsonSchemaValidator()
  })

const serve = (input: McpRequest, run: RunEffect, now: number): Promise<Response> => {
  const refused = JsonRpcChecks.refusal(input.parsedBody, input.request.headers.get("mcp-protocol-version"))
  if (refused !== null) return Promise.resolve(refused)
  const server = newServer()
  // Resources are read through their tools: the same pipeline, scopes and audit as a call.
  Resources.register(server, async (tool, args, signal) => {
    const answer = await callCatalog(input, run, tool, { method: "tools/call", params: { name: tool, arguments: { ...args } } }, signal)
    const first = answer.content[0]
    return { ok: answer.isError !== true, text: first !== undefined && first.type === "text" ? first.text : "" }
  })
  // The toolsets listed: the session's, once it has any; else those the address names (`default` when none).
  const fromAddress = Toolsets.named(input.headers.toolsets ?? null)
  const listing = Listing.make({
    fromAddress, sessions: input.sessions, sessionId: input.headers.sessionId, now,
    outputSchemas: Toolsets.outputSchemas(input.headers.outputSchemas ?? null) ?? true
  })

  server.setRequestHandler(ListToolsRequestSchema, async (_list, extra) => {
    if (fromAddress.unknown.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown toolsets: ${fromAddress.unknown.join(", ")}. ` +
        `Known: all, default, ${[...Toolsets.toolsets.keys()].sort().join(", ")}.`)
    }
    const outputs = Toolsets.outputSchemas(input.headers.outputSchemas ?? null)
    if (outputs === null) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown output_schemas value: say ${Toolsets.outputSchemasValues.join(" or ")}.`)
    }
    const tools = listing.list(await run(callerOf(input), extra.signal))
    return { tools: tools.map((tool) => outputs ? tool : withoutOutputSchema(tool)) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const target = addressed(call)
    if ("refused" in target) return target.refused
    if (!Discovery.names.has(target.name)) return callCatalog(input, run, target.name, target.target, extra.signal)
    // The discovery tools' answers (Listing.ts); a toggle sends list_changed on this call's answer.
    const caller = await run(callerOf(input), extra.signal)
    if (target.name === Discovery.listToolsets) return listing.listToolsets(caller)
    if (target.name === Discovery.describeTool) return listing.describeTool(caller, target.args)
    return listing.toggle(caller, target.name === Discovery.enableToolset, target.args,
      () => extra.sendNotification({ method: "notifications/tools/list_changed" }))
  })
  const opened = input.sessions !== undefined && initializes(input.parsedBody) && fromAddress.unknown.length === 0
    ? input.sessions.open(fromAddress.names, now)
    : null
  return respond(server, input, opened)
}
