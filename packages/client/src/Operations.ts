import type { Schema } from "effect"
import { Catalog, type Operation } from "@ledger/api"

/**
 * What the SDK knows about each operation, derived from the catalog of @ledger/api: the input a
 * method takes and the body it returns are the operation's own Schemas, so an operation added to
 * the catalog is a typed method of the client with no change here.
 */

/** An operation whose id TypeScript knows exactly (an id typed `string` cannot name a method). */
type Named<O> = O extends { readonly id: infer Id extends string } ? string extends Id ? never : O : never

/**
 * Every operation the SDK types: the catalog, minus the MCP endpoint (an MCP client speaks it).
 * An operation declared through a helper that widens its id to `string` is still callable at run
 * time, but has no typed method until its id is a literal type.
 */
export type ClientOperation = Named<Exclude<Catalog.Operations, { readonly id: "postMcp" }>>
export type OperationId = ClientOperation["id"]
export type OperationOf<Id extends OperationId> = Extract<ClientOperation, { readonly id: Id }>

type Simplify<A> = { [K in keyof A]: A[K] } & {}

/**
 * The JSON fields of one part of a request; an operation without that part contributes none. Not
 * distributive: for a union of operations (an id typed as any `OperationId`) it stays small instead
 * of multiplying every operation's fields by every other's.
 */
type FieldsOf<S> = [S] extends [Schema.Top] ? unknown extends S["Encoded"] ? {} : S["Encoded"] extends object ? S["Encoded"] : {}
  : {}

/**
 * A method's input: path parameters, query parameters and body fields merged into one object,
 * exactly like the operation's MCP tool input (docs/decisions/0600-sdk-methods-and-flat-input.md).
 */
export type Input<O extends Operation.Any> = Simplify<FieldsOf<O["pathParams"]> & FieldsOf<O["query"]> & FieldsOf<O["body"]>>

/** True when every input field is optional, so the method may be called without an argument. */
export type InputOptional<O extends Operation.Any> = {} extends Input<O> ? true : false

/** The body of the operation's main success status. */
export type Success<O extends Operation.Any> = O["success"]["Type"]

/**
 * The body of a dry run (200) of an operation that takes `dry_run`: governed writes answer with
 * the verdict, the exact entry and the balances it would move (DECISIONS.md); other previews
 * (a starter chart, a statement import) have their own fields.
 */
export interface DryRunResult {
  readonly dry_run: true
  readonly [field: string]: unknown
}

/** The 202 body of a governed write queued for a person's approval (DECISIONS.md). */
export interface PendingApproval {
  readonly status: "pending_approval"
  readonly proposal: {
    readonly id: number
    readonly kind: string
    readonly summary: string
    readonly amount_cents: number
    readonly created_by: unknown
    readonly created_at: string
    readonly reasons: ReadonlyArray<{ readonly type: string; readonly message: string }>
  }
}

type TakesDryRun<O extends Operation.Any> = "dry_run" extends keyof FieldsOf<O["body"]> ? true : false

/**
 * What a method resolves with. An operation that takes `dry_run` may also answer with a preview
 * (200) or, when governed, a proposal queued for approval (202): narrow with `isDryRun` and
 * `isPendingApproval` before using the record.
 */
export type Output<O extends Operation.Any> = TakesDryRun<O> extends true ? Success<O> | DryRunResult | PendingApproval
  : Success<O>

/** The items of a list operation (one answering `{ data, has_more, next_cursor }`), else never. */
export type ItemOf<O extends Operation.Any> = Success<O> extends {
  readonly data: ReadonlyArray<infer Item>
  readonly has_more: boolean
  readonly next_cursor: string | null
} ? Item
  : never

/** The ids of the operations that return a cursor page and take a `cursor`. */
export type ListOperationId = {
  [O in ClientOperation as O["id"]]: [ItemOf<O>] extends [never] ? never : "cursor" extends keyof Input<O> ? O["id"] : never
}[OperationId]

export const isPendingApproval = (value: unknown): value is PendingApproval =>
  typeof value === "object" && value !== null && (value as { status?: unknown }).status === "pending_approval" &&
  typeof (value as { proposal?: unknown }).proposal === "object"

export const isDryRun = (value: unknown): value is DryRunResult =>
  typeof value === "object" && value !== null && (value as { dry_run?: unknown }).dry_run === true

/** The operation with this id, or undefined for an id the catalog does not have. */
export const lookup = (id: string): Operation.Any | undefined => (id === "postMcp" ? undefined : Catalog.get(id))

/** Every operation id the SDK offers, in catalog order. */
export const ids = (): ReadonlyArray<OperationId> =>
  (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.id !== "postMcp")
    .map((operation) => operation.id as OperationId)

const fieldNameCache = new WeakMap<Schema.Top, ReadonlySet<string>>()

/** The field names of a struct schema (path and query parameters are always structs). */
const fieldNames = (schema: Schema.Top | undefined): ReadonlySet<string> => {
  if (schema === undefined) return new Set()
  let names = fieldNameCache.get(schema)
  if (names === undefined) {
    const fields = (schema as unknown as { readonly fields?: Record<string, unknown> }).fields
    names = new Set(fields === undefined ? [] : Object.keys(fields))
    fieldNameCache.set(schema, names)
  }
  return names
}

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
export const splitInput = (operation: Operation.Any, input: Readonly<Record<string, unknown>> | undefined): SplitInput => {
  const pathNames = fieldNames(operation.pathParams)
  const queryNames = fieldNames(operation.query)
  const path: Record<string, unknown> = {}
  const query: Record<string, unknown> = {}
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue
    if (pathNames.has(name)) path[name] = value
    else if (queryNames.has(name)) query[name] = value
    else body[name] = value
  }
  if (operation.method === "GET") {
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
