import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks requests to the object store, and the answers the fake store gives, against AWS's own
 * Smithy model of Amazon S3 (test/fixtures/providers/s3: API 2006-03-01, Apache-2.0).
 *
 * Requests: the operation by its HTTP binding (`PUT|GET|HEAD|DELETE /{Bucket}/{Key+}`, or the bucket
 * in the host, virtual-host style); the required labels (a bucket name S3 accepts, a key of 1 to 1024
 * bytes); every query parameter an `httpQuery` member of the operation's input; every header one the
 * input binds (`httpHeader`, `httpPrefixHeaders`), a Signature Version 4 header or transport, and an
 * enum header one of its values; a body only where the input has an `httpPayload`. From the service's
 * `aws.auth#sigv4` trait and S3's Signature Version 4 rules: the credential scope names `s3`, the
 * signed headers include `host`, `x-amz-date`, `x-amz-content-sha256` and every `x-amz-*` sent, and a
 * PUT states its `Content-Length` (S3 refuses a PUT without one: 411 `MissingContentLength`).
 *
 * Answers: a success with the operation's `http.code` and only headers its output binds; a
 * refusal as restXml with `noErrorWrapping` says, `<Error><Code>…</Code><Message>…</Message>…</Error>`
 * (none on a HEAD), its status the modelled error's `httpError`, or for S3's errors that the model
 * leaves out (authentication, throttling), the status S3's error-code list gives.
 */

type Json = any
interface Shape { readonly type: string; readonly members?: Record<string, { readonly target: string; readonly traits?: Record<string, Json> }>; readonly traits?: Record<string, Json>; readonly [key: string]: Json }

const file = fileURLToPath(new URL("../../fixtures/providers/s3/s3-smithy-subset.json", import.meta.url))
export const model: { readonly shapes: Record<string, Shape> } = JSON.parse(readFileSync(file, "utf8"))
const shape = (id: string): Shape => {
  const found = model.shapes[id]
  if (found === undefined) throw new Error(`the model has no ${id}`)
  return found
}
const service = shape("com.amazonaws.s3#AmazonS3")
export const apiVersion: string = service.version
interface Operation extends Shape {
  readonly name: string
  readonly input: { readonly target: string }
  readonly output: { readonly target: string }
  readonly errors?: ReadonlyArray<{ readonly target: string }>
}
const operations: ReadonlyArray<Operation> = (service.operations as Array<{ target: string }>).map(({ target }) => ({ name: target.split("#")[1]!, ...shape(target) }) as Operation)

export interface Exchange {
  readonly method: string
  /** The request target as received: path and query, still percent-encoded. */
  readonly target: string
  /** Header names lower-case, `host` included. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly bodyBytes: number
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string>>
  /** The answer's body when it is not an object's bytes (errors). */
  readonly responseBody: string
}

/** Headers no operation binds: the Signature Version 4 ones and what any HTTP client or server adds. */
const signing = new Set(["authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"])
const transport = new Set(["host", "content-length", "connection", "keep-alive", "user-agent", "accept", "accept-encoding", "accept-language", "sec-fetch-mode", "transfer-encoding", "expect"])
const answerTransport = new Set(["date", "server", "connection", "keep-alive", "transfer-encoding", "x-amz-request-id", "x-amz-id-2", "content-length", "content-type"])
const bucketName = /^(?!xn--)(?!.*-s3alias$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/u
const authorization = /^AWS4-HMAC-SHA256 Credential=[^/\s,]+\/\d{8}\/[^/\s,]+\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=[0-9a-f]{64}$/u

/** Where a member of a structure is bound: by header name (lower-case), by prefix, or by query name. */
const bindings = (structure: Shape) => {
  const members = Object.entries(structure.members ?? {})
  const trait = (name: string) => members.flatMap(([member, value]) => value.traits?.[name] === undefined ? [] : [[member, value] as const])
  return {
    headers: new Map(trait("smithy.api#httpHeader").map(([, value]) => [String(value.traits!["smithy.api#httpHeader"]).toLowerCase(), value.target])),
    prefixes: trait("smithy.api#httpPrefixHeaders").map(([, value]) => String(value.traits!["smithy.api#httpPrefixHeaders"]).toLowerCase()),
    queries: new Set(trait("smithy.api#httpQuery").map(([, value]) => String(value.traits!["smithy.api#httpQuery"]))),
    payload: trait("smithy.api#httpPayload").length > 0
  }
}

const enumValues = (target: string): Array<string> | null => {
  const found = model.shapes[target]
  if (found?.type !== "enum") return null
  return Object.values(found.members ?? {}).map((member) => String(member.traits?.["smithy.api#enumValue"]))
}

/** The bucket and key a request names, by its addressing style. */
const addressOf = (exchange: Exchange, bucket: string) => {
  const url = new URL(exchange.target, "http://s3.invalid")
  const host = (exchange.headers.host ?? "").replace(/:\d+$/u, "")
  const segments = url.pathname.split("/").slice(1)
  const named = host.startsWith(`${bucket}.`) ? bucket : decodeURIComponent(segments.shift() ?? "")
  return { url, bucket: named, key: segments.map(decodeURIComponent).join("/") }
}

/** What is wrong with one request by the model; empty when nothing is. `bucket` tells a virtual-host request. */
export const requestProblems = (exchange: Exchange, bucket: string): Array<string> => {
  const { url, bucket: named, key } = addressOf(exchange, bucket)
  const operation = key === "" ? undefined : operations.find((candidate) => candidate.traits?.["smithy.api#http"]?.method === exchange.method)
  const name = operation === undefined ? `${exchange.method} ${url.pathname}` : `${operation.name} ${url.pathname}`
  if (operation === undefined) return [`${name}: no such operation of the objects' API`]
  const input = bindings(shape(operation.input.target))
  const found: Array<string> = []
  if (!bucketName.test(named)) found.push(`${name}: "${named}" is not a bucket name`)
  if (Buffer.byteLength(key) > 1024) found.push(`${name}: a key over 1024 bytes`)
  for (const query of url.searchParams.keys()) if (query !== "x-id" && !input.queries.has(query)) found.push(`${name}: query ${query} is not a member`)
  for (const [header, value] of Object.entries(exchange.headers)) {
    if (signing.has(header) || transport.has(header)) continue
    const target = input.headers.get(header)
    if (target === undefined && !input.prefixes.some((prefix) => header.startsWith(prefix))) found.push(`${name}: header ${header} is not a member`)
    const values = target === undefined ? null : enumValues(target)
    if (values !== null && !values.includes(String(value))) found.push(`${name}: header ${header}: "${value}" is not one of ${values.join(", ")}`)
  }
  if (!input.payload && exchange.bodyBytes > 0) found.push(`${name}: a body where the operation takes none`)
  if (exchange.method === "PUT" && exchange.headers["content-length"] === undefined) found.push(`${name}: no Content-Length`)
  const signed = authorization.exec(exchange.headers.authorization ?? "")
  if (signed === null) return [...found, `${name}: no Signature Version 4 Authorization`]
  const scope = service.traits?.["aws.auth#sigv4"]?.name
  if (signed[1] !== scope) found.push(`${name}: signed for ${signed[1]}, not ${scope}`)
  const signedHeaders = signed[2]!.split(";")
  const mustSign = ["host", "x-amz-date", "x-amz-content-sha256", ...Object.keys(exchange.headers).filter((header) => header.startsWith("x-amz-"))]
  for (const header of new Set(mustSign)) if (!signedHeaders.includes(header)) found.push(`${name}: ${header} is not signed`)
  if (!/^([0-9a-f]{64}|UNSIGNED-PAYLOAD)$/u.test(exchange.headers["x-amz-content-sha256"] ?? "")) found.push(`${name}: x-amz-content-sha256 is not a payload hash`)
  return found
}

/**
 * S3's documented status for errors the model does not list (they can answer any operation):
 * Amazon S3 API Reference, "Error responses", list of error codes.
 */
const commonErrors: Readonly<Record<string, number>> = {
  AccessDenied: 403, InvalidAccessKeyId: 403, SignatureDoesNotMatch: 403, RequestTimeTooSkewed: 403, AuthorizationHeaderMalformed: 400,
  XAmzContentSHA256Mismatch: 400, InvalidRequest: 400, MissingContentLength: 411, EntityTooLarge: 400, KeyTooLongError: 400,
  NoSuchBucket: 404, MethodNotAllowed: 405, InternalError: 500, ServiceUnavailable: 503, SlowDown: 503
}

/** What is wrong with the fake's answer to one request by the model. */
export const responseProblems = (exchange: Exchange, bucket: string): Array<string> => {
  const { url, key } = addressOf(exchange, bucket)
  const operation = key === "" ? undefined : operations.find((candidate) => candidate.traits?.["smithy.api#http"]?.method === exchange.method)
  if (operation === undefined) return []
  const name = `${operation.name} ${url.pathname} answer`
  if (exchange.status < 300) {
    const code = operation.traits!["smithy.api#http"].code
    const output = bindings(shape(operation.output.target))
    const extra = Object.keys(exchange.responseHeaders).filter((header) => !answerTransport.has(header) && !output.headers.has(header) && !output.prefixes.some((prefix) => header.startsWith(prefix)))
    return [...(exchange.status === code ? [] : [`${name}: HTTP ${exchange.status}, the model says ${code}`]), ...extra.map((header) => `${name}: header ${header} is not a member`)]
  }
  if (exchange.method === "HEAD") return exchange.responseBody === "" ? [] : [`${name}: a body on a HEAD`]
  const xml = exchange.responseBody.replace(/^<\?xml[^>]*\?>\s*/u, "")
  const errorCode = /^<Error>(?:(?!<\/Error>)[\s\S])*<Code>([^<]+)<\/Code>(?:(?!<\/Error>)[\s\S])*<\/Error>\s*$/u.exec(xml)?.[1]
  if (errorCode === undefined) return [`${name}: not an <Error> with a <Code> (restXml, noErrorWrapping)`]
  const found = /<Message>[^<]*<\/Message>/u.test(xml) ? [] : [`${name}: no <Message>`]
  const modelled = (operation.errors ?? []).map(({ target }) => target).find((target) => target.endsWith(`#${errorCode}`))
  const status = modelled === undefined ? commonErrors[errorCode] : shape(modelled).traits?.["smithy.api#httpError"]
  if (status === undefined) return [...found, `${name}: ${errorCode} is neither an error of ${operation.name} nor one of S3's common errors`]
  return exchange.status === status ? found : [...found, `${name}: ${errorCode} with HTTP ${exchange.status}, not ${status}`]
}
