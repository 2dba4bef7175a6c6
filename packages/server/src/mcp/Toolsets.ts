import { Catalog, type Operation, Scope } from "@ledger/api"

/**
 * Which tools a caller sees (issue 20 item 5). An agent's context window is its working memory:
 * a read-and-propose agent should not carry `create_company`, the operator's tools or the
 * administration of keys it may not use. The list follows who is asking (principal kind and
 * scopes, from `GET /v1/me` through the same pipeline as every call) and, when the client asks,
 * named toolsets. Calling a tool that is not listed still goes through the pipeline, which refuses
 * it as it would over HTTP: the list is a courtesy to the agent, never the access control.
 */

/** Who asks, as `getMe` answered; null when the credential is not a company principal's. */
export interface Caller {
  readonly principalType: string
  readonly scopes: ReadonlyArray<Scope.Scope>
}

const people = new Set(["user", "firm_member", "operator"])

/** Whether an operation may succeed for the caller at all: its credential kind, scope and people-only rule. */
export const usableBy = (operation: Operation.Any, caller: Caller | null): boolean => {
  if (!operation.mcpTool || operation.credential === "none") return false
  // A browser session's operations never run over MCP, which takes keys and access tokens.
  if (operation.browserSessionOnly) return false
  if (caller === null) return true
  if (operation.credential !== "company") return false
  if (operation.peopleOnly && !people.has(caller.principalType)) return false
  return Scope.satisfies(caller.scopes, operation.scope)
}

/**
 * Toolsets a client may ask for with `?toolsets=` on the MCP address or the `X-Ledger-Toolsets`
 * header: every area of the catalog by its name, and `books` for the ledger with its reports.
 */
export const toolsets: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const sets = new Map<string, Set<string>>()
  for (const [area, operations] of Object.entries(Catalog.areas)) {
    sets.set(area, new Set((operations as ReadonlyArray<Operation.Any>).map((operation) => operation.id)))
  }
  sets.set("books", new Set([...(sets.get("ledger") ?? []), ...(sets.get("reports") ?? [])]))
  return sets
})()

/** At most this many names in one `toolsets` value: a longer list is a mistake, not a choice. */
const toolsetNamesMax = 32

/**
 * The operation ids of the named toolsets, or null for all (no value, or `all`). Unknown names are
 * answered, not ignored, so a typo does not silently give an agent nothing.
 */
export const selected = (value: string | null): { readonly ids: ReadonlySet<string> | null; readonly unknown: ReadonlyArray<string> } => {
  if (value === null || value.trim() === "" || value.trim() === "all") return { ids: null, unknown: [] }
  const names = value.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "").slice(0, toolsetNamesMax)
  const ids = new Set<string>()
  const unknown: Array<string> = []
  for (const name of names) {
    const set = toolsets.get(name)
    if (set === undefined) unknown.push(name)
    else for (const id of set) ids.add(id)
  }
  return { ids, unknown }
}

/** The values of the output-schemas option: `none` lists tools without their output schemas. */
export const outputSchemasValues = ["all", "none"] as const

/**
 * Whether to list output schemas (true by default), from `?output_schemas=none` on the MCP address
 * or the `X-Ledger-Output-Schemas: none` header: a client that does not read `structuredContent`
 * need not load, nor compile, every answer's schema. Calls answer the same either way. Null for a
 * value that is neither, answered rather than ignored, as an unknown toolset is.
 */
export const outputSchemas = (value: string | null): boolean | null => {
  const chosen = (value ?? "").trim().toLowerCase()
  return chosen === "" || chosen === "all" ? true : chosen === "none" ? false : null
}

/** What the server tells every MCP client at initialization: how Ledger's tools fit together. */
export const instructions = [
  "Ledger is a double-entry bookkeeping service. Every tool acts in ONE company: the one your key belongs to",
  "(a firm credential names the client company with the X-Ledger-Company header or the dev.ledger/company meta).",
  "Money is integer cents (amount_cents); dates are YYYY-MM-DD.",
  "Writes need an idempotency_key: a fresh unique value per intended change; reuse the same key when you retry",
  "the same call, and the first result is replayed instead of writing twice.",
  "Governed writes (journal entries, invoices, bills, payments...) accept dry_run: true to preview without writing.",
  "An agent's write above its posting threshold is not posted: it becomes a proposal (status 202) that a person",
  "approves; report the proposal id to the person instead of retrying.",
  "Refusals are JSON with error.type (stable) and error.message; read error.details for what to fix.",
  "Record ids are integers; timestamps are ISO 8601 in UTC.",
  "The tool list is sized to your key's scopes; ask for fewer tools with ?toolsets=books,sales,banking on the MCP URL."
].join(" ")
