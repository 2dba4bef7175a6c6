import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { Catalog, Operation } from "@ledger/api"
import * as JsonSchema from "../JsonSchema.ts"
import * as Describe from "./Describe.ts"
import * as Hints from "./Hints.ts"
import * as OutputSchema from "./OutputSchema.ts"

/** One tool per catalog operation (DECISIONS "MCP"): its input from the operation's fields, its output schema, its annotations. */

/** Names whose calls end or undo something: MCP clients may ask a person before calling them. */
const destructiveVerbs = /^(revoke|void|remove|delete|cancel|disconnect|reject|archive|unlink|undo|unmatch|exclude|deactivate|discard)/

export interface ToolEntry {
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
export const withoutOutputSchema = ({ outputSchema: _, ...tool }: Tool): Tool => tool

let tools: ReadonlyMap<string, ToolEntry> | undefined
/** Every catalog tool by name, built once. */
export const toolsOf = () => (tools ??= buildTools())
