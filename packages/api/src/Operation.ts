import type { Schema } from "effect"
import type { ErrorType } from "./ApiError.ts"
import type { Files } from "./File.ts"
import type { Scope } from "./Scope.ts"

/**
 * How an operation changes state (spec 4.0): `K` needs an Idempotency-Key unless it is a dry run,
 * `-` sets a value and needs none, `R` only reads.
 */
export type WriteMode = "K" | "-" | "R"

/**
 * Which credential an operation takes. `company`: a company API key (or, later, a session or a
 * firm credential acting in a client); `operator`: the operator bootstrap token; `none`: public;
 * `invitation`: an owner invitation; `firm`: a firm key or session.
 */
export type Credential = "company" | "operator" | "none" | "invitation" | "firm"

export interface Operation<
  Id extends string = string,
  PathParams extends Schema.Top = Schema.Top,
  Query extends Schema.Top = Schema.Top,
  Body extends Schema.Top = Schema.Top,
  Success extends Schema.Top = Schema.Top
> {
  /** camelCase; the MCP tool name is its snake_case form. */
  readonly id: Id
  readonly method: "GET" | "POST"
  /** The spec's path, with `{name}` parameters. */
  readonly path: string
  /** The spec section, e.g. "4.2 Administration and keys". */
  readonly area: string
  readonly summary: string
  readonly description?: string
  readonly credential: Credential
  readonly scope: Scope
  readonly mode: WriteMode
  /** Refuses agents and AI apps with `insufficient_scope`. */
  readonly peopleOnly: boolean
  /** Needs the person's own browser session. */
  readonly browserSessionOnly: boolean
  /**
   * For a person "signed in" (spec 3-endpoints-b 4.11, 4.12; DECISIONS "People-only and signed-in
   * operations"): a browser session only, so its step-up (concepts 5.5) can be asked; any API key,
   * the owner's included, is refused 403 `session_required` (agents and AI apps, being no people,
   * `insufficient_scope` first).
   */
  readonly signedIn: boolean
  /** Not offered as an MCP tool. */
  readonly mcpTool: boolean
  /** Part of the governed write path: `dry_run` and 200/201/202 results. */
  readonly governed: boolean
  /** The largest JSON body this operation reads, when it is not `Limits.requestBodyBytesMax`. */
  readonly bodyBytesMax?: number
  /**
   * The handler also needs the body's exact bytes and the request's headers (a signed event from
   * an outside provider, whose signature covers the raw body): HTTP passes them as `RequestInfo.raw`.
   */
  readonly rawBody: boolean
  /**
   * The files this operation can answer (docs/decisions/0015-files-are-files.md): its handler
   * answers a JSON envelope, which HTTP sends as the file itself when the request chose one.
   */
  readonly files?: Files
  readonly pathParams: PathParams
  readonly query: Query
  readonly body: Body
  /** Success statuses and the schema of each. */
  readonly responses: Readonly<Record<number, Schema.Top>>
  /** The main success schema, used by the SDK's types. */
  readonly success: Success
  readonly errors: ReadonlyArray<ErrorType>
}

export type Any = Operation<string, Schema.Top, Schema.Top, Schema.Top, Schema.Top>

export interface Options<
  Id extends string,
  PathParams extends Schema.Top,
  Query extends Schema.Top,
  Body extends Schema.Top,
  Success extends Schema.Top
> {
  readonly id: Id
  readonly method: "GET" | "POST"
  readonly path: string
  readonly area: string
  readonly summary: string
  readonly description?: string
  readonly credential?: Credential
  readonly scope: Scope
  readonly mode: WriteMode
  readonly peopleOnly?: boolean
  readonly browserSessionOnly?: boolean
  readonly signedIn?: boolean
  readonly mcpTool?: boolean
  readonly governed?: boolean
  /** Raise the body size limit for an operation that carries a file (a bank statement). */
  readonly bodyBytesMax?: number
  /** The handler verifies a signature over the raw body (see `Operation.rawBody`). */
  readonly rawBody?: boolean
  /** The `format` values that answer a file and their media types (see `Operation.files`). */
  readonly files?: Files
  readonly pathParams?: PathParams
  readonly query?: Query
  readonly body?: Body
  readonly success: Success
  /** Success status of `success`; 200 for reads, 201 for creating writes by default. */
  readonly status?: number
  /** Further success statuses (a dry run's 200, a queued 202). */
  readonly otherResponses?: Readonly<Record<number, Schema.Top>>
  readonly errors?: ReadonlyArray<ErrorType>
}

const readErrors: ReadonlyArray<ErrorType> = ["invalid_request", "unauthorized", "insufficient_scope", "rate_limited", "internal_error"]
const writeErrors: ReadonlyArray<ErrorType> = [
  ...readErrors,
  "idempotency_key_required",
  "invalid_idempotency_key",
  "idempotency_conflict",
  "idempotency_in_progress",
  "validation_failed"
]

/** The placeholder for an operation without path, query or body. */
export interface None extends Schema.Top {}

/** Declares one operation. Standard error sets of spec 4.0 are added from its mode and path. */
export const make = <
  const Id extends string,
  PathParams extends Schema.Top = Schema.Top,
  Query extends Schema.Top = Schema.Top,
  Body extends Schema.Top = Schema.Top,
  Success extends Schema.Top = Schema.Top
>(options: Options<Id, PathParams, Query, Body, Success>): Operation<Id, PathParams, Query, Body, Success> => {
  const status = options.status ?? (options.mode === "R" ? 200 : options.method === "POST" && options.mode === "K" ? 201 : 200)
  const standard = options.mode === "R" ? readErrors : writeErrors
  const withId = options.path.includes("{") ? ["not_found" as const] : []
  // A firm credential acts in a company it names (X-Ledger-Company): without it, company_required.
  const credential = options.credential ?? "company"
  const company: ReadonlyArray<ErrorType> = credential === "company" ? ["company_required"] : []
  const session: ReadonlyArray<ErrorType> = options.signedIn === true ? ["session_required"] : []
  // Over HTTP a POST's body must arrive within its deadline (the server's SlowClients.ts).
  const withBody: ReadonlyArray<ErrorType> = options.method === "POST" ? ["request_timeout"] : []
  const errors = Array.from(new Set<ErrorType>([...standard, ...company, ...session, ...withId, ...withBody, ...(options.errors ?? [])]))
  return {
    id: options.id,
    method: options.method,
    path: options.path,
    area: options.area,
    summary: options.summary,
    ...(options.description === undefined ? {} : { description: options.description }),
    credential,
    scope: options.scope,
    mode: options.mode,
    peopleOnly: options.peopleOnly ?? false,
    browserSessionOnly: options.browserSessionOnly ?? false,
    signedIn: options.signedIn ?? false,
    mcpTool: options.mcpTool ?? true,
    governed: options.governed ?? false,
    ...(options.bodyBytesMax === undefined ? {} : { bodyBytesMax: options.bodyBytesMax }),
    rawBody: options.rawBody ?? false,
    ...(options.files === undefined ? {} : { files: options.files }),
    pathParams: options.pathParams as PathParams,
    query: options.query as Query,
    body: options.body as Body,
    responses: { ...options.otherResponses, [status]: options.success },
    success: options.success,
    errors
  }
}

/** `createInvoice` -> `create_invoice`: the MCP tool name (DECISIONS.md). */
export const toolName = (id: string): string => id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()
