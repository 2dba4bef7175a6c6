import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { checker } from "./contract-schema.ts"

/**
 * Checks requests to the bank-feed aggregator, and the answers its fake gives, against Plaid's own
 * published OpenAPI description (test/fixtures/providers/plaid: API 2020-09-14).
 *
 * Requests: a POST to an operation of the description (under the base URL's path); a JSON body
 * (`application/json`) that names only declared fields, with every required one, of the declared
 * types, enums and bounds (Plaid refuses unknown fields: `UNKNOWN_FIELDS`); the client's
 * credentials, in the body (`client_id`, `secret`) or in the description's headers
 * (`PLAID-CLIENT-ID`, `PLAID-SECRET`); and the API version pinned in `Plaid-Version` (else the
 * dashboard's default version answers, which may not be the one the adapter reads).
 *
 * Answers: a 200 by the operation's response schema, every required field there; a refusal by
 * `PlaidError`, its HTTP status the one Plaid gives its `error_type`.
 */

type Json = any

const file = fileURLToPath(new URL("../../fixtures/providers/plaid/plaid-openapi-subset.json", import.meta.url))
export const description: {
  readonly info: { readonly version: string }
  readonly paths: Record<string, { readonly post: Json }>
  readonly components: { readonly schemas: Record<string, Json> }
} = JSON.parse(readFileSync(file, "utf8"))

/** The API version the description is (its `info.version` is `2020-09-14_<build>`). */
export const apiVersion = description.info.version.split("_")[0]!

const { problems } = checker(description.components.schemas)

export interface Recorded {
  readonly method: string
  /** The path as received, with its query. */
  readonly path: string
  /** Header names lower-case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status?: number
  readonly answer?: Json
}

/** The operation path a received path is for, under `basePath` (the base URL's own path). */
const operationPath = (path: string, basePath: string) => {
  const pathname = new URL(path, "http://aggregator.invalid").pathname
  const root = basePath.replace(/\/+$/u, "")
  return root !== "" && pathname.startsWith(`${root}/`) ? pathname.slice(root.length) : pathname
}

/** What is wrong with one request by the description; empty when nothing is. */
export const requestProblems = (request: Recorded, options: { readonly basePath?: string } = {}): Array<string> => {
  const path = operationPath(request.path, options.basePath ?? "")
  const name = `${request.method} ${path}`
  const operation = description.paths[path]?.post
  if (request.method !== "POST" || operation === undefined) return [`${name}: no such operation`]
  const found: Array<string> = []
  if (!(request.headers["content-type"] ?? "").startsWith("application/json")) found.push(`${name}: not application/json`)
  if (request.headers["plaid-version"] !== apiVersion) found.push(`${name}: Plaid-Version is not ${apiVersion}`)
  let body: Json
  try {
    body = JSON.parse(request.body)
  } catch {
    return [...found, `${name}: the body is not JSON`]
  }
  const inBody = typeof body?.client_id === "string" && typeof body?.secret === "string"
  const inHeaders = (request.headers["plaid-client-id"] ?? "") !== "" && (request.headers["plaid-secret"] ?? "") !== ""
  if (!inBody && !inHeaders) found.push(`${name}: no client_id and secret`)
  const schema = operation.requestBody?.content?.["application/json"]?.schema
  if (schema === undefined) return [...found, `${name}: takes no JSON body`]
  return [...found, ...problems(schema, body, "body", "request").map((problem) => `${name}: ${problem}`)]
}

/** Plaid's HTTP status per error type (its error reference: invalid requests and item errors are 400s). */
const statusOf: Readonly<Record<string, ReadonlyArray<number>>> = {
  INVALID_REQUEST: [400, 404], INVALID_INPUT: [400], INVALID_RESULT: [400], ITEM_ERROR: [400], INSTITUTION_ERROR: [400],
  RATE_LIMIT_EXCEEDED: [429], API_ERROR: [500]
}

/** What is wrong with the answer a fake gave a request: its 200 body, or its error body and status. */
export const responseProblems = (request: Recorded, options: { readonly basePath?: string } = {}): Array<string> => {
  const path = operationPath(request.path, options.basePath ?? "")
  const operation = description.paths[path]?.post
  if (request.answer === undefined) return []
  const name = `POST ${path} answer`
  if (request.status === 200) {
    const schema = operation?.responses?.["200"]?.content?.["application/json"]?.schema
    return schema === undefined ? [`${name}: no 200 answer described`] : problems(schema, request.answer, name, "answer")
  }
  const shape = problems({ $ref: "#/components/schemas/PlaidError" }, request.answer, name, "answer")
  const allowed = statusOf[String(request.answer?.error_type)] ?? []
  return [...shape, ...(allowed.includes(request.status ?? 0) ? [] : [`${name}: HTTP ${request.status} for ${request.answer?.error_type}`])]
}
