import type { Tool } from "@modelcontextprotocol/sdk/types.js"

/**
 * The discovery tools (issue 40, ADR 2200): how an agent that starts from the small default list
 * finds and reaches every other tool its credential may use, at run time. Modelled on the
 * code-hosting anchor's dynamic toolsets (list, enable, then the list changes) plus what MCP
 * itself offers: `notifications/tools/list_changed` for clients that reload, and, for clients
 * that do not, `call_tool`, which calls any tool by name with the arguments `describe_tool` shows.
 * They are listed in every list, whatever toolsets are named, and never need a scope beyond the
 * tool they reach: the pipeline judges each call exactly as if it were made directly.
 */

export const listToolsets = "list_toolsets"
export const describeTool = "describe_tool"
export const enableToolset = "enable_toolset"
export const disableToolset = "disable_toolset"
export const callTool = "call_tool"

export const names: ReadonlySet<string> = new Set([listToolsets, describeTool, enableToolset, disableToolset, callTool])

/** The toggles, whose answer may come with `notifications/tools/list_changed`. */
export const toggles: ReadonlySet<string> = new Set([enableToolset, disableToolset])

/** A refusal, as every tool's output schema has it (OutputSchema.ts). */
const refusal = { type: "object", required: ["error"] }

const toolsetArgument: Tool["inputSchema"] = {
  type: "object",
  properties: { toolset: { type: "string", minLength: 1, maxLength: 40, description: "A name list_toolsets gives, e.g. banking." } },
  required: ["toolset"],
  additionalProperties: false
}

const names_ = { type: "array", items: { type: "string" } }

const toggled: NonNullable<Tool["outputSchema"]> = {
  type: "object",
  anyOf: [{
    type: "object",
    required: ["toolset", "enabled", "changed", "session", "tools"],
    properties: { toolset: { type: "string" }, enabled: { type: "boolean" }, changed: { type: "boolean" }, session: { type: "boolean" }, tools: names_, note: { type: "string" } }
  }, refusal]
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
const toggle = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** The discovery tools as listed, first in every list. Kept short: they are in every agent's context. */
export const tools: ReadonlyArray<Tool> = [
  {
    name: listToolsets,
    title: "List the toolsets",
    description: "Every toolset you may turn on, one line each with its tool names, and which are in your list now. " +
      "Next: describe_tool for a tool's input, then call_tool (or enable_toolset to list a whole toolset).",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: {
      type: "object",
      anyOf: [{
        type: "object",
        required: ["toolsets", "session"],
        properties: {
          toolsets: { type: "array", items: { type: "object", required: ["name", "description", "enabled", "tools"], properties: { name: { type: "string" }, description: { type: "string" }, enabled: { type: "boolean" }, tools: names_ } } },
          session: { type: "boolean" }
        }
      }, refusal]
    },
    annotations: readOnly
  },
  {
    name: describeTool,
    title: "Describe one tool",
    description: "One tool's full definition (input schema, output schema, annotations), listed or not, if your credential may call it. " +
      "Next: call it by name, or through call_tool if your client only calls listed tools.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 80, description: "The tool's name, e.g. match_bank_line." },
        output_schema: { type: "boolean", description: "false: leave the output schema out (about half a write's bytes). Default: as your tool list." }
      },
      required: ["name"],
      additionalProperties: false
    },
    outputSchema: {
      type: "object",
      anyOf: [{ type: "object", required: ["tool", "toolsets", "listed"], properties: { tool: { type: "object" }, toolsets: names_, listed: { type: "boolean" } } }, refusal]
    },
    annotations: readOnly
  },
  {
    name: enableToolset,
    title: "Turn a toolset on",
    description: "Adds a toolset's tools to this session's list; the server then sends notifications/tools/list_changed. " +
      "If your client does not reload its list, call the tools through call_tool.",
    inputSchema: toolsetArgument,
    outputSchema: toggled,
    annotations: toggle
  },
  {
    name: disableToolset,
    title: "Turn a toolset off",
    description: "Removes a toolset's tools from this session's list (they stay callable through call_tool); sends notifications/tools/list_changed.",
    inputSchema: toolsetArgument,
    outputSchema: toggled,
    annotations: toggle
  },
  {
    name: callTool,
    title: "Call any tool by name",
    description: "Calls any tool your credential may use, listed or not, with the arguments its describe_tool schema takes; " +
      "answers exactly what that tool answers. _meta (idempotency key, model, company) applies as to a direct call.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 80, description: "The tool's name." },
        arguments: { type: "object", description: "The tool's arguments, idempotency_key included for writes." }
      },
      required: ["name"],
      additionalProperties: false
    },
    // Whatever the called tool answers: an object, its own schema's (describe_tool shows it).
    outputSchema: { type: "object" },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
  }
]
