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
import { Effect } from "effect"
import { ApiError, Catalog, Operation, type Scope } from "@ledger/api"
import type { Dispatcher, Invocation } from "@ledger/engine"
import { Engine } from "../EngineVersion.ts"
import * as JsonSchema from "../JsonSchema.ts"
import * as Describe from "./Describe.ts"
import * as Door from "./Door.ts"
import * as JsonRpcChecks from "./JsonRpcChecks.ts"
import * as OutputSchema from "./OutputSchema.ts"
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
        description: `${operation.summary} (${operation.method} ${operation.path}; scope ${operation.scope}${
          operation.peopleOnly ? "; people only" : ""
        }${operation.governed ? "; governed: may post, queue a proposal, or preview with dry_run" : ""})`,
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
  }
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
  return yield* Effect.promise((served) => {
    const run: RunEffect = (effect, called) => runWith(effect, { signal: AbortSignal.any([served, called]) })
    return serve(input, run)
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

/** Who is asking, through the pipeline's own `GET /v1/me`; null when that is not a company principal. */
const callerOf = (input: McpRequest): Effect.Effect<Toolsets.Caller | null> =>
  Effect.map(Door.whoIsAsking(input), (outcome) => {
    if (outcome.status !== 200) return null
    const body = outcome.body as { readonly principal_type: string; readonly scopes: ReadonlyArray<Scope.Scope> }
    return { principalType: body.principal_type, scopes: body.scopes }
  })

const serve = (input: McpRequest, run: RunEffect): Promise<Response> => {
  const refused = JsonRpcChecks.refusal(input.parsedBody, input.request.headers.get("mcp-protocol-version"))
  if (refused !== null) return Promise.resolve(refused)
  const server = new Server(
    { name: "ledger", version: Engine.serverVersion },
    { capabilities: { tools: {} }, instructions: Toolsets.instructions }
  )
  server.setRequestHandler(ListToolsRequestSchema, async (_list, extra) => {
    const chosen = Toolsets.selected(input.headers.toolsets ?? null)
    if (chosen.unknown.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown toolsets: ${chosen.unknown.join(", ")}. ` +
        `Known: all, ${[...Toolsets.toolsets.keys()].sort().join(", ")}.`)
    }
    const outputs = Toolsets.outputSchemas(input.headers.outputSchemas ?? null)
    if (outputs === null) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown output_schemas value: say ${Toolsets.outputSchemasValues.join(" or ")}.`)
    }
    const caller = await run(callerOf(input), extra.signal)
    const tools = Array.from(toolsOf().values()).filter((entry) =>
      Toolsets.usableBy(entry.operation, caller) && (chosen.ids === null || chosen.ids.has(entry.operation.id)))
    return { tools: tools.map((entry) => outputs ? entry.tool : withoutOutputSchema(entry.tool)) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const entry = toolsOf().get(call.params.name)
    if (entry === undefined) {
      const body = ApiError.fail("not_found", `No tool named ${call.params.name}.`).toBody()
      return { isError: true, content: [{ type: "text", text: text(body) }], structuredContent: body }
    }
    const outcome = inMcpWords(await run(input.dispatcher.execute(invocationOf(entry, call, input.headers)), extra.signal))
    // Matches the tool's outputSchema: an object answer as it is, any other under `result`.
    const structured = (typeof outcome.body === "object" && outcome.body !== null && !Array.isArray(outcome.body) &&
        !(entry.wrapped && outcome.status < 400)
      ? outcome.body
      : { result: outcome.body }) as Record<string, unknown>
    return {
      ...(outcome.status >= 400 ? { isError: true } : {}),
      content: [{ type: "text", text: text(outcome.body) }],
      structuredContent: structured,
      _meta: { "dev.ledger/status": outcome.status }
    }
  })
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  return server.connect(transport).then(() =>
    transport.handleRequest(input.request, { parsedBody: input.parsedBody }).finally(() => {
      void server.close()
    })
  )
}
