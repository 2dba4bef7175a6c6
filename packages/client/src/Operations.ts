import { type DryRunResult, type GovernedQueued, type ListOperationId, type Operations, routes } from "./generated/Operations.ts"

/**
 * What the SDK knows about each operation. The types are plain TypeScript precomputed from the
 * catalog of @ledger/api into generated/Operations.ts (scripts/generate.ts; a test fails when it is
 * stale), so a user's type-check reads interfaces instead of instantiating 380 operations' Effect
 * Schemas (docs/decisions/0606-sdk-precomputed-types.md). Nothing here imports Effect or
 * @ledger/api: the Promise client is built on this module alone.
 */

export type { DryRunResult, ListOperationId }

/** One operation as the SDK types it: its flat input and its answers, as JSON. */
export interface Entry {
  readonly input: object
  readonly optional: boolean
  readonly dryRun: boolean
  readonly output: unknown
  readonly preview: unknown
  readonly queued: unknown
}

/** Every operation the SDK types: the catalog, minus the MCP endpoint (an MCP client speaks it). */
export type OperationId = keyof Operations
export type OperationOf<Id extends OperationId> = Operations[Id]
/** Every operation's entry. */
export type ClientOperation = Operations[OperationId]

/**
 * A method's input: path parameters, query parameters and body fields merged into one object,
 * exactly like the operation's MCP tool input (docs/decisions/0600-sdk-methods-and-flat-input.md).
 */
export type Input<O extends Entry> = O["input"]

/** True when every input field is optional, so the method may be called without an argument. */
export type InputOptional<O extends Entry> = O["optional"]

/** The body of the operation's main success status. */
export type Success<O extends Entry> = O["output"]

/** The 202 body of a governed write queued for a person's approval (DECISIONS.md). */
export type PendingApproval = GovernedQueued

/**
 * Everything a call may resolve with when its arguments are not known: an operation that takes
 * `dry_run` may also answer with a preview (200) or, when governed, a proposal queued for approval
 * (202). A method called with literal arguments narrows this itself (see `Answer`).
 */
export type Output<O extends Entry> = O["output"] | O["preview"] | O["queued"]

/**
 * What a call resolves with, by its own input: `dry_run: true` -> the preview; no `dry_run` (or
 * `false`) -> the record, or the proposal when the write was queued for approval; a `dry_run`
 * known only as `boolean` -> any of them.
 */
export type Answer<O extends Entry, I> = O["dryRun"] extends false ? O["output"]
  : I extends { readonly dry_run: true } ? O["preview"]
  : I extends { readonly dry_run?: false | undefined } ? O["output"] | O["queued"]
  : Output<O>

/** The items of a list operation (one answering `{ data, has_more, next_cursor }`), else never. */
export type ItemOf<O extends Entry> = O["output"] extends {
  readonly data: ReadonlyArray<infer Item>
  readonly has_more: boolean
  readonly next_cursor: string | null
} ? Item
  : never

export const isPendingApproval = (value: unknown): value is PendingApproval =>
  typeof value === "object" && value !== null && (value as { status?: unknown }).status === "pending_approval" &&
  typeof (value as { proposal?: unknown }).proposal === "object"

export const isDryRun = (value: unknown): value is DryRunResult =>
  typeof value === "object" && value !== null && (value as { dry_run?: unknown }).dry_run === true

/** Every operation id the SDK offers, in catalog order. */
export const ids = (): ReadonlyArray<OperationId> => Object.keys(routes) as Array<OperationId>

export interface SplitInput {
  readonly path: Readonly<Record<string, unknown>>
  readonly query: Readonly<Record<string, unknown>>
  /** Undefined for a GET; the remaining fields (maybe none) for a POST. */
  readonly body: Readonly<Record<string, unknown>> | undefined
}

/**
 * Sorts a flat input into path, query and body by the operation's schemas. A field that is neither
 * a path nor a query parameter belongs to the body, so a misspelt field reaches the server and is
 * refused there (400 invalid_request) rather than silently dropped.
 */
export const splitInput = (
  method: "GET" | "POST",
  pathNames: ReadonlySet<string>,
  queryNames: ReadonlySet<string>,
  input: Readonly<Record<string, unknown>> | undefined
): SplitInput => {
  const path: Record<string, unknown> = {}
  const query: Record<string, unknown> = {}
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue
    if (pathNames.has(name)) path[name] = value
    else if (queryNames.has(name)) query[name] = value
    else body[name] = value
  }
  if (method === "GET") {
    // A GET has no body: a field the schemas do not know is sent as a query parameter, for the
    // server to refuse by name.
    return { path, query: { ...query, ...body }, body: undefined }
  }
  return { path, query, body }
}

/** `/v1/keys/{id}/rotate` with `{ id: 7 }` -> `/v1/keys/7/rotate`; a missing parameter is a programming error. */
export const fillPath = (template: string, path: Readonly<Record<string, unknown>>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = path[name]
    if (value === undefined || value === null) throw new TypeError(`Missing path parameter "${name}" for ${template}`)
    return encodeURIComponent(String(value))
  })

/** Query values as the server reads them: booleans and numbers as text, arrays comma-separated. */
export const queryString = (query: Readonly<Record<string, unknown>>): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    params.set(name, Array.isArray(value) ? value.map(String).join(",") : String(value))
  }
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}
