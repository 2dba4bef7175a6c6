import { ApiError, Catalog, File, Operation } from "@ledger/api"
import { Engine } from "../EngineVersion.ts"
import * as JsonSchema from "../JsonSchema.ts"
import * as OpenApiWebhooks from "./OpenApiWebhooks.ts"

type Json = Record<string, unknown>

const errorRef = { $ref: "#/components/schemas/Error" }

const parameters = (operation: Operation.Any): Array<Json> => {
  const out: Array<Json> = []
  for (const [location, schema] of [["path", operation.pathParams], ["query", operation.query]] as const) {
    if (schema === undefined) continue
    const json = JsonSchema.of(schema, { closed: false })
    const properties = (json.properties ?? {}) as Record<string, Json>
    const required = new Set((json.required ?? []) as Array<string>)
    for (const [name, property] of Object.entries(properties)) {
      out.push({
        name,
        in: location,
        required: location === "path" || required.has(name),
        schema: property,
        ...(typeof property.description === "string" ? { description: property.description } : {})
      })
    }
  }
  if (operation.mode === "K") {
    const dryRun = operation.governed || JsonSchema.fieldNames(operation.body).includes("dry_run")
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: !dryRun,
      description: `8 to 200 characters${dryRun ? "; required unless `dry_run` is true" : ""}. A retry with the same key replays the first result.`,
      schema: { type: "string", minLength: 8, maxLength: 200 }
    })
  }
  if (operation.mode !== "R" && operation.credential === "company") {
    out.push({
      name: "X-Agent-Model",
      in: "header",
      required: false,
      description: "Required on agent writes: the model name and version.",
      schema: { type: "string" }
    })
    out.push({ name: "X-Agent-Run-Id", in: "header", required: false, schema: { type: "string" } })
  }
  return out
}

const describeFlags = (operation: Operation.Any): string => {
  const lines = [
    `Scope: \`${operation.scope}\`. Write mode: \`${operation.mode}\`.`,
    operation.peopleOnly ? "People only: agents and AI apps are refused with `insufficient_scope`." : "",
    operation.signedIn
      ? "Signed in: the person's own browser session (`ldgs_`), with a step-up where concepts 5.5 asks one; any API key, the owner's included, is refused 403 `session_required`."
      : "",
    operation.governed ? "Governed write: 200 dry run, 201 posted, 202 queued for approval." : "",
    operation.mcpTool ? `MCP tool: \`${Operation.toolName(operation.id)}\`.` : "Not an MCP tool."
  ]
  return [operation.description ?? "", ...lines].filter((line) => line !== "").join("\n\n")
}

/**
 * The media types of an operation's main success answer when it declares files (ADR 0015): each
 * file's bytes (text as a string, anything else as binary) beside the JSON of its data and envelope.
 */
const fileContent = (files: File.Files, json: Json): Json => {
  const content: Json = {}
  for (const type of File.mediaTypesOf(files)) {
    content[type] = { schema: /^text\//.test(type) ? { type: "string" } : { type: "string", format: "binary" } }
  }
  content["application/json"] = json
  return content
}

const fileHeaders: Json = {
  "Content-Disposition": {
    description: "With a file: `attachment` with the suggested `filename` (and `filename*` when it is not plain ASCII).",
    schema: { type: "string" }
  }
}

const describeFiles = (files: File.Files): string => {
  const formats = Object.entries(files.formats).map(([format, types]) => `\`${format}\` (${types.map((type) => `\`${File.essence(type)}\``).join(", ")})`)
  return `Files: ${formats.join(", ")}${files.default === undefined ? "" : `; \`${files.default}\` when no format is given`}. ` +
    "Chosen by `format`, or by `Accept` when `format` is absent; a client that accepts only `application/json` gets the " +
    "file in a JSON envelope (as MCP does). Refusals are JSON."
}

let cached: Json | undefined

/** The OpenAPI 3.1 document, derived from the catalog (version 0.1.0, spec 9). */
export const document = (): Json => {
  if (cached !== undefined) return cached
  const paths: Record<string, Record<string, Json>> = {}
  for (const operation of Catalog.operations as ReadonlyArray<Operation.Any>) {
    const responses: Record<string, Json> = {}
    for (const [status, schema] of Object.entries(operation.responses)) {
      const json = { schema: JsonSchema.of(schema, { closed: false }) }
      const file = operation.files !== undefined && schema === operation.success ? operation.files : undefined
      responses[status] = {
        description: Number(status) === 202 ? "Accepted" : Number(status) === 201 ? "Created" : "OK",
        ...(file === undefined ? { content: { "application/json": json } } : { headers: fileHeaders, content: fileContent(file, json) })
      }
    }
    const statuses = new Set(operation.errors.map((type) => ApiError.errorStatus[type]))
    for (const status of statuses) {
      const types = operation.errors.filter((type) => ApiError.errorStatus[type] === status)
      responses[String(status)] = {
        description: `Refused: ${types.map((type) => `\`${type}\``).join(", ")}`,
        content: { "application/json": { schema: errorRef } }
      }
    }
    const item: Json = {
      operationId: operation.id,
      summary: operation.summary,
      description: operation.files === undefined ? describeFlags(operation) : `${describeFlags(operation)}\n\n${describeFiles(operation.files)}`,
      tags: [operation.area],
      parameters: parameters(operation),
      responses,
      security: operation.credential === "none" ? [] : [{ bearer: [] }],
      "x-ledger-scope": operation.scope,
      "x-ledger-mode": operation.mode,
      "x-ledger-credential": operation.credential,
      "x-ledger-people-only": operation.peopleOnly,
      "x-ledger-signed-in": operation.signedIn,
      "x-ledger-mcp-tool": operation.mcpTool ? Operation.toolName(operation.id) : null
    }
    if (operation.body !== undefined && operation.method === "POST") {
      item.requestBody = {
        required: true,
        content: { "application/json": { schema: JsonSchema.of(operation.body, { closed: true }) } }
      }
    }
    const path = (paths[operation.path] ??= {})
    path[operation.method.toLowerCase()] = item
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Ledger",
      version: Engine.apiVersion,
      description: "Multi-tenant double-entry bookkeeping. Amounts are integer cents. Every operation is also an MCP tool at POST /mcp."
    },
    servers: [{ url: "/" }],
    paths,
    // What Ledger sends to an endpoint, one entry per declared event type (ADR 2010).
    webhooks: OpenApiWebhooks.webhooks(),
    components: {
      schemas: { Error: JsonSchema.of(ApiError.ErrorBody, { closed: false }), WebhookEvent: OpenApiWebhooks.eventSchema() },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "A company API key (`ldg_`), a session, a firm credential, or the operator token."
        }
      }
    }
  }
  return cached
}
