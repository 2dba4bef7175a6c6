import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import { Clock, Effect } from "effect"
import { ApiError, Catalog, Operation, type Scope } from "@ledger/api"
import type { Dispatcher, Invocation } from "@ledger/engine"
import { Engine } from "../EngineVersion.ts"
import * as JsonSchema from "../JsonSchema.ts"
import * as Describe from "./Describe.ts"
import * as Discovery from "./Discovery.ts"
import * as Hints from "./Hints.ts"
import * as Door from "./Door.ts"
import * as JsonRpcChecks from "./JsonRpcChecks.ts"
import * as OutputSchema from "./OutputSchema.ts"
import * as Sessions from "./Sessions.ts"
import * as Toolsets from "./Toolsets.ts"

/** Names whose calls end or undo something: MCP clients may ask a person before calling them. */
const destructiveVerbs = /^(revoke|void|remove|delete|cancel|disconnect|reject|archive|unlink|undo|unmatch|exclude|deactivate|discard)/

interface ToolEntry {
  readonly operation: Operation.Any
  readonly tool: Tool
  readonly pathFields: ReadonlySet<string>
  readonly queryFields: ReadonlySet<string>
  /** The answer is not a JSON object: `structuredContent` is `{ result: body }` (see OutputSchema). */
  readonly wrapped: boolean
}

/**
 * Said on each of the owner's ~140 writes, so kept short: the server's instructions explain the
 * key once in full, and the schema's `required` (or its `anyOf` with dry_run) says when it is due.
 */
const keyDescription = "Unique per change; reuse it to retry safely."

const buildTools = (): ReadonlyMap<string, ToolEntry> => {
  const entries = new Map<string, ToolEntry>()
  for (const operation of Catalog.operations as ReadonlyArray<Operation.Any>) {
    if (!operation.mcpTool || operation.credential === "none") continue
    const properties: Record<string, unknown> = {}
    const required: Array<string> = []
    for (const [where, schema] of [["path", operation.pathParams], ["query", operation.query], ["body", operation.body]] as const) {
      if (schema === undefined) continue
      const json = JsonSchema.of(schema, { closed: true })
      for (const [field, property] of Object.entries((json.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        const description = property.description === undefined ? Describe.fallback(operation, field, property, where) : null
        properties[field] = description === null ? property : { ...property, description }
      }
      required.push(...((json.required ?? []) as Array<string>))
    }
    // A write's key is required in the schema, as the pipeline requires it; an operation that
    // previews with dry_run needs none for the preview.
    let keyRule: Record<string, unknown> = {}
    if (operation.mode === "K") {
      const dryRun = operation.governed || JsonSchema.fieldNames(operation.body).includes("dry_run")
      properties.idempotency_key = {
        type: "string",
        minLength: 8,
        maxLength: 200,
        description: dryRun ? `${keyDescription} Optional with dry_run.` : keyDescription
      }
      if (dryRun) {
        keyRule = { anyOf: [{ required: ["idempotency_key"] }, { required: ["dry_run"], properties: { dry_run: { const: true } } }] }
      } else {
        required.push("idempotency_key")
      }
    }
    const name = Operation.toolName(operation.id)
    const output = OutputSchema.of(operation)
    entries.set(name, {
      operation,
      wrapped: output.wrapped,
      pathFields: new Set(JsonSchema.fieldNames(operation.pathParams)),
      queryFields: new Set(JsonSchema.fieldNames(operation.query)),
      tool: {
        name,
        title: operation.summary,
        // What it does, what it costs and what follows (issue 40 item 4), then where it lives.
        description: [operation.summary, Hints.cost(operation), Hints.next(operation)].filter((part) => part !== null).join(" ") +
          ` (${operation.method} ${operation.path}; scope ${operation.scope}${operation.peopleOnly ? "; people only" : ""})`,
        inputSchema: {
          type: "object",
          properties: properties as Record<string, object>,
          required: Array.from(new Set(required)),
          additionalProperties: false,
          ...keyRule
        },
        outputSchema: output.schema,
        // The title is the tool's own `title`; `annotations.title` would say it a third time.
        annotations: {
          readOnlyHint: operation.mode === "R",
          destructiveHint: operation.mode !== "R" && destructiveVerbs.test(operation.id),
          idempotentHint: operation.mode !== "R",
          openWorldHint: false
        }
      }
    })
  }
  return entries
}

/** The tool as a client that asked for no output schemas lists it: the SDK then checks no answer's shape. */
const withoutOutputSchema = ({ outputSchema: _, ...tool }: Tool): Tool => tool

let tools: ReadonlyMap<string, ToolEntry> | undefined
const toolsOf = () => (tools ??= buildTools())

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

/** A tool result whose structured content is `body`: an error body when `isError`. */
const result = (body: Record<string, unknown>, isError = false) => {
  const hint = isError ? Hints.forAnswer(400, body) : null
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: "text" as const, text: text(body) }, ...(hint === null ? [] : [{ type: "text" as const, text: `Next: ${hint}` }])],
    structuredContent: body,
    ...(hint === null ? {} : { _meta: { "dev.ledger/hint": hint } })
  }
}

const refusedWith = (body: { readonly error: unknown }) => result(body as Record<string, unknown>, true)

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

const serve = (input: McpRequest, run: RunEffect, now: number): Promise<Response> => {
  const refused = JsonRpcChecks.refusal(input.parsedBody, input.request.headers.get("mcp-protocol-version"))
  if (refused !== null) return Promise.resolve(refused)
  const server = new Server(
    { name: "ledger", version: Engine.serverVersion },
    { capabilities: { tools: { listChanged: true } }, instructions: Toolsets.instructions }
  )
  // The toolsets listed: the session's, once it has any; else those the address names (`default` when none).
  const fromAddress = Toolsets.named(input.headers.toolsets ?? null)
  const sessions = input.sessions
  const sessionId = Sessions.isSessionId(input.headers.sessionId) ? input.headers.sessionId : null
  /** The session's toolsets for `caller`; a session of another principal is not this caller's, and not used. */
  const viewOf = (caller: Toolsets.Caller | null): {
    readonly names: ReadonlySet<string>
    readonly session: Sessions.Session | null
    /** The session id is another principal's. */
    readonly foreign: boolean
  } => {
    const session = sessionId === null ? undefined : sessions?.get(sessionId, now)
    if (session === undefined) return { names: fromAddress.names, session: null, foreign: false }
    if (session.identity !== null && session.identity !== (caller?.identity ?? null)) {
      return { names: fromAddress.names, session: null, foreign: true }
    }
    return { names: session.names, session, foreign: false }
  }
  /** Catalog tools the caller may use, those the toolsets hold first. */
  const usable = (caller: Toolsets.Caller | null) =>
    Array.from(toolsOf().values()).filter((entry) => Toolsets.usableBy(entry.operation, caller))
  const listedNames = (caller: Toolsets.Caller | null, names: ReadonlySet<string>): ReadonlySet<string> => {
    const ids = Toolsets.idsOf(names, caller)
    return new Set(usable(caller).filter((entry) => ids === null || ids.has(entry.operation.id)).map((entry) => entry.tool.name))
  }

  server.setRequestHandler(ListToolsRequestSchema, async (_list, extra) => {
    if (fromAddress.unknown.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown toolsets: ${fromAddress.unknown.join(", ")}. ` +
        `Known: all, default, ${[...Toolsets.toolsets.keys()].sort().join(", ")}.`)
    }
    const outputs = Toolsets.outputSchemas(input.headers.outputSchemas ?? null)
    if (outputs === null) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown output_schemas value: say ${Toolsets.outputSchemasValues.join(" or ")}.`)
    }
    const caller = await run(callerOf(input), extra.signal)
    const view = viewOf(caller)
    if (view.session !== null && view.session.identity === null && sessionId !== null && caller?.identity !== undefined) {
      sessions?.put(sessionId, { ...view.session, identity: caller.identity }, now)
    }
    const listed = listedNames(caller, view.names)
    const tools = [...Discovery.tools, ...usable(caller).filter((entry) => listed.has(entry.tool.name)).map((entry) => entry.tool)]
    return { tools: tools.map((tool) => outputs ? tool : withoutOutputSchema(tool)) }
  })

  /** The discovery tools' answers (Discovery.ts); `notify` sends list_changed on this call's answer. */
  const discover = async (name: string, args: Record<string, unknown>, signal: AbortSignal, notify: () => Promise<void>) => {
    const caller = await run(callerOf(input), signal)
    const view = viewOf(caller)
    const listed = listedNames(caller, view.names)
    const mine = usable(caller)
    if (name === Discovery.listToolsets) {
      const toolsets = ["default", ...[...Toolsets.toolsets.keys()].sort()].flatMap((toolset) => {
        const ids = Toolsets.idsOf(new Set([toolset]), caller) ?? new Set<string>()
        const tools = mine.filter((entry) => ids.has(entry.operation.id)).map((entry) => entry.tool.name)
        return tools.length === 0 ? [] : [{
          name: toolset,
          description: Toolsets.describe(toolset),
          enabled: view.names.has("all") || tools.every((tool) => listed.has(tool)),
          tools
        }]
      })
      // Whether toggles change this client's list: it sends a session id that is not another principal's.
      return result({ toolsets, session: sessionId !== null && sessions !== undefined && !view.foreign })
    }
    if (name === Discovery.describeTool) {
      const wanted = typeof args.name === "string" ? args.name : ""
      if (Discovery.names.has(wanted)) {
        return result({ tool: Discovery.tools.find((tool) => tool.name === wanted)!, toolsets: [], listed: true })
      }
      const entry = toolsOf().get(wanted)
      if (entry === undefined || !Toolsets.usableBy(entry.operation, null)) {
        return refusedWith(ApiError.fail("not_found", `No tool named ${wanted}. list_toolsets names every tool you may call.`).toBody())
      }
      if (!Toolsets.usableBy(entry.operation, caller)) {
        return refusedWith(ApiError.fail(
          "insufficient_scope",
          `${wanted} is not for this credential: it needs scope ${entry.operation.scope}${entry.operation.peopleOnly ? " and a person" : ""}` +
            `${entry.operation.credential === "firm" ? " and a firm's credential" : ""}. Ask a person who may, or for a credential that may.`,
          { required_scope: entry.operation.scope }
        ).toBody())
      }
      const toolsets = [...Toolsets.toolsets.entries()].filter(([, ids]) => ids.has(entry.operation.id)).map(([toolset]) => toolset)
      return result({ tool: entry.tool, toolsets, listed: listed.has(wanted) })
    }
    // enable_toolset, disable_toolset
    const toolset = typeof args.toolset === "string" ? args.toolset.trim().toLowerCase() : ""
    if (!Toolsets.known(toolset)) {
      return refusedWith(ApiError.fail("not_found", `No toolset named ${toolset}. list_toolsets names them.`).toBody())
    }
    const enabled = name === Discovery.enableToolset
    const ids = Toolsets.idsOf(new Set([toolset]), caller)
    const tools = mine.filter((entry) => ids === null || ids.has(entry.operation.id)).map((entry) => entry.tool.name)
    // A session id this process does not know (a restart, another replica, idle too long) is
    // taken up again from the address's toolsets; another principal's is not this caller's.
    if (sessionId === null || sessions === undefined || view.foreign) {
      return result({
        toolset,
        enabled: tools.every((tool) => listed.has(tool)),
        changed: false,
        session: false,
        tools,
        note: "This client keeps no MCP session (no Mcp-Session-Id), so its tool list cannot change: call these tools through " +
          "call_tool (describe_tool shows their input), or name the toolset in ?toolsets= on the MCP address."
      })
    }
    const names = new Set(view.names)
    if (enabled) names.add(toolset)
    else names.delete(toolset)
    sessions.put(sessionId, { names, identity: caller?.identity ?? view.session?.identity ?? null }, now)
    const after = listedNames(caller, names)
    const changed = after.size !== listed.size || [...after].some((tool) => !listed.has(tool))
    if (changed) await notify()
    return result({
      toolset,
      enabled,
      changed,
      session: true,
      tools,
      ...(enabled ? {} : { note: "Still callable through call_tool." })
    })
  }

  /** Calls the catalog's tool `name` as the pipeline would over HTTP. */
  const callCatalog = async (name: string, call: CallToolRequest, signal: AbortSignal) => {
    const entry = toolsOf().get(name)
    if (entry === undefined) {
      return refusedWith(ApiError.fail("not_found", `No tool named ${name}. list_toolsets names every tool you may call.`).toBody())
    }
    const outcome = inMcpWords(await run(input.dispatcher.execute(invocationOf(entry, call, input.headers)), signal))
    // Matches the tool's outputSchema: an object answer as it is, any other under `result`.
    const structured = (typeof outcome.body === "object" && outcome.body !== null && !Array.isArray(outcome.body) &&
        !(entry.wrapped && outcome.status < 400)
      ? outcome.body
      : { result: outcome.body }) as Record<string, unknown>
    // The next step, for a model (a second text block) and a program (_meta): the body stays the API's.
    const hint = Hints.forAnswer(outcome.status, outcome.body)
    return {
      ...(outcome.status >= 400 ? { isError: true } : {}),
      content: [{ type: "text" as const, text: text(outcome.body) }, ...(hint === null ? [] : [{ type: "text" as const, text: `Next: ${hint}` }])],
      structuredContent: structured,
      _meta: { "dev.ledger/status": outcome.status, ...(hint === null ? {} : { "dev.ledger/hint": hint }) }
    }
  }

  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const notify = () => extra.sendNotification({ method: "notifications/tools/list_changed" })
    let name = call.params.name
    let args = (call.params.arguments ?? {}) as Record<string, unknown>
    let target = call
    if (name === Discovery.callTool) {
      // The same call, addressed to the named tool: its arguments, the outer call's _meta.
      const inner = args.arguments
      if (typeof args.name !== "string" || args.name === Discovery.callTool ||
        (inner !== undefined && (typeof inner !== "object" || inner === null || Array.isArray(inner)))) {
        return refusedWith(ApiError.fail("invalid_request", "call_tool takes name (a tool other than call_tool) and arguments (an object).").toBody())
      }
      name = args.name
      args = (inner ?? {}) as Record<string, unknown>
      target = { ...call, params: { ...call.params, name, arguments: args } }
    }
    if (Discovery.names.has(name)) return discover(name, args, extra.signal, notify)
    return callCatalog(name, target, extra.signal)
  })
  // A toggle's answer is an event stream when the client takes one, so list_changed reaches it
  // before the answer; every other answer is plain JSON.
  const streamed = input.headers.acceptsEventStream === true && togglesTools(input.parsedBody)
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !streamed })
  const opened = sessions !== undefined && initializes(input.parsedBody) && fromAddress.unknown.length === 0
    ? sessions.open(fromAddress.names, now)
    : null
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
