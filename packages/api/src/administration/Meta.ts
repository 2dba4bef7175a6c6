import { Schema } from "effect"
import * as Operation from "../Operation.ts"

const area = "4.1 Meta"

export const Health = Schema.Struct({
  status: Schema.Literals(["ok", "degraded"]),
  version: Schema.String,
  storage: Schema.Literals(["postgresql", "pglite"]),
  database: Schema.Literals(["ok", "unreachable"]),
  time: Schema.String
}).annotate({ identifier: "Health" })

export const getHealth = Operation.make({
  id: "getHealth",
  method: "GET",
  path: "/health",
  area,
  summary: "Health of the server and its database. Needs no credential.",
  credential: "none",
  scope: "read",
  mode: "R",
  mcpTool: false,
  success: Health
})

export const getOpenApi = Operation.make({
  id: "getOpenApi",
  method: "GET",
  path: "/openapi.json",
  area,
  summary: "This OpenAPI 3.1 document. Needs no credential.",
  credential: "none",
  scope: "read",
  mode: "R",
  mcpTool: false,
  success: Schema.Record(Schema.String, Schema.Unknown)
})

export const postMcp = Operation.make({
  id: "postMcp",
  method: "POST",
  path: "/mcp",
  area,
  summary: "The MCP endpoint: stateless Streamable HTTP, JSON-RPC 2.0, JSON responses. Same Bearer credential as the API.",
  credential: "company",
  scope: "read",
  mode: "R",
  mcpTool: false,
  body: Schema.Record(Schema.String, Schema.Unknown),
  success: Schema.Record(Schema.String, Schema.Unknown),
  otherResponses: { 202: Schema.Struct({}) }
})

export const operations = [getHealth, getOpenApi, postMcp] as const
