import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks requests to the online edition (QuickBooks Online's v3 API and Intuit's OAuth 2.0), and the
 * answers a fake gives, against Intuit's own published descriptions (test/fixtures/providers/
 * quickbooks-online: the v3 XSDs of the Java SDK 6.4 and the scopes of Intuit's OAuth client, both
 * Apache-2.0).
 *
 * Requests: the consent URL is Intuit's authorization endpoint with `client_id`, `response_type=code`,
 * scopes Intuit has, an absolute `redirect_uri` and a `state`; the token call is a form POST with
 * HTTP Basic client credentials and `grant_type` `authorization_code` (code, absolute
 * `redirect_uri`) or `refresh_token`; the revoke call a JSON `{token}` with Basic credentials; the
 * query call a GET with a Bearer token naming only `query` and `minorversion`, its statement one the
 * query language takes (`SELECT * | COUNT(*) FROM <entity> [STARTPOSITION n] [MAXRESULTS m<=1000]`)
 * on an entity the XSDs describe.
 *
 * Answers: a query's `{QueryResponse, time}` and a refusal's `{Fault: {Error: [{Message, Detail,
 * code}], type}, time}` by the XSD types (every field declared on the type or its bases, of the
 * declared type and cardinality, enumerations respected); a token call's answer by OAuth 2.0
 * (RFC 6749 5.1 and 5.2).
 */

type Json = any
interface Element { readonly type: string; readonly many: boolean }
interface Complex { readonly base?: string; readonly value?: string; readonly elements?: Record<string, Element>; readonly attributes?: Record<string, string> }

const file = fileURLToPath(new URL("../../fixtures/providers/quickbooks-online/qbo-v3-subset.json", import.meta.url))
export const description: {
  readonly roots: ReadonlyArray<string>
  readonly types: Record<string, Complex>
  readonly simpleTypes: Record<string, { readonly base: string; readonly enum?: ReadonlyArray<string> }>
  readonly oauth: { readonly scopes: ReadonlyArray<string> }
} = JSON.parse(readFileSync(file, "utf8"))

/** Intuit's OAuth 2.0 endpoints by path (its discovery document, https://developer.api.intuit.com/.well-known/openid_configuration). */
export const paths = { authorize: "/connect/oauth2", token: "/oauth2/v1/tokens/bearer", revoke: "/v2/oauth2/tokens/revoke" } as const

export interface Recorded {
  readonly method: string
  /** The absolute URL, as sent. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status?: number
  readonly answer?: Json
}

/** A `fetch` that records every request and its answer (for a fake's handler). */
export const recording = (send: (request: Request) => Promise<Response>) => {
  const requests: Array<Recorded> = []
  const fetch = async (request: Request): Promise<Response> => {
    const body = await request.clone().text()
    const response = await send(request)
    const text = await response.clone().text()
    let answer: Json
    try {
      answer = text === "" ? undefined : JSON.parse(text)
    } catch {
      answer = text
    }
    requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body, status: response.status, answer })
    return response
  }
  return { fetch, requests }
}

const absolute = (value: string | null) => value !== null && /^https?:\/\//iu.test(value) && URL.canParse(value)

/** What is wrong with a consent URL (the address the person is sent to). */
export const consentProblems = (consentUrl: string): Array<string> => {
  if (!absolute(consentUrl)) return [`consent URL ${consentUrl}: not absolute`]
  const url = new URL(consentUrl)
  const query = url.searchParams
  const problems: Array<string> = []
  if (url.pathname !== paths.authorize) problems.push(`consent URL: ${url.pathname} is not the authorization endpoint ${paths.authorize}`)
  for (const key of ["client_id", "response_type", "scope", "redirect_uri", "state"]) if ((query.get(key) ?? "") === "") problems.push(`consent URL: ${key} required`)
  if (query.get("response_type") !== null && query.get("response_type") !== "code") problems.push(`consent URL: response_type "${query.get("response_type")}" is not code`)
  for (const scope of (query.get("scope") ?? "").split(" ").filter((item) => item !== "")) {
    if (!description.oauth.scopes.includes(scope)) problems.push(`consent URL: scope "${scope}" is not one Intuit has`)
  }
  if (query.get("redirect_uri") !== null && !absolute(query.get("redirect_uri"))) problems.push(`consent URL: redirect_uri "${query.get("redirect_uri")}" is not absolute`)
  return problems
}

/** What is wrong with a query statement, by the v3 query language. */
export const statementProblems = (statement: string): Array<string> => {
  const match = /^SELECT (\*|COUNT\(\*\)) FROM (\w+)( WHERE Active IN \(true, ?false\))?(?: STARTPOSITION (\d+))?(?: MAXRESULTS (\d+))?$/iu.exec(statement)
  if (match === null) return [`query "${statement}": not a statement the query language takes`]
  const problems: Array<string> = []
  if (!(description.types.QueryResponse?.elements ?? {})[match[2]!]) problems.push(`query "${statement}": ${match[2]} is not an entity the description has`)
  // A filter on Active only where the entity (or a base of it) has the field.
  if (match[3] !== undefined && !chain(match[2]!).some((type) => type.elements?.Active !== undefined)) problems.push(`query "${statement}": ${match[2]} has no Active field`)
  if (match[4] !== undefined && Number(match[4]) < 1) problems.push(`query "${statement}": STARTPOSITION starts at 1`)
  if (match[5] !== undefined && (Number(match[5]) < 1 || Number(match[5]) > 1000)) problems.push(`query "${statement}": MAXRESULTS is 1 to 1000`)
  return problems
}

const basic = (headers: Readonly<Record<string, string>>) => /^Basic [A-Za-z0-9+/=]+$/u.test(headers.authorization ?? "")

/** What is wrong with one request by the description; empty when nothing is. */
export const requestProblems = (request: Recorded): Array<string> => {
  if (!absolute(request.url)) return [`${request.method} ${request.url}: not an absolute URL`]
  const url = new URL(request.url)
  const name = `${request.method} ${url.pathname}`
  const problems: Array<string> = []
  const accept = (request.headers.accept ?? "").includes("application/json")
  if (url.pathname === paths.token) {
    if (request.method !== "POST") return [`${name}: the token endpoint takes a POST`]
    if (!basic(request.headers)) problems.push(`${name}: no HTTP Basic client credentials`)
    if (!(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) problems.push(`${name}: not form-encoded`)
    if (!accept) problems.push(`${name}: no Accept: application/json`)
    const form = new URLSearchParams(request.body)
    const grant = form.get("grant_type")
    const allowed = grant === "authorization_code" ? ["grant_type", "code", "redirect_uri"] : grant === "refresh_token" ? ["grant_type", "refresh_token"] : null
    if (allowed === null) return [...problems, `${name}: grant_type "${grant}" is not authorization_code or refresh_token`]
    for (const key of allowed) if ((form.get(key) ?? "") === "") problems.push(`${name}: ${key} required`)
    for (const key of form.keys()) if (!allowed.includes(key)) problems.push(`${name}: ${key} is not a parameter of this grant`)
    if (grant === "authorization_code" && !absolute(form.get("redirect_uri"))) problems.push(`${name}: redirect_uri "${form.get("redirect_uri")}" is not absolute`)
    return problems
  }
  if (url.pathname === paths.revoke) {
    if (request.method !== "POST") return [`${name}: the revocation endpoint takes a POST`]
    if (!basic(request.headers)) problems.push(`${name}: no HTTP Basic client credentials`)
    if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push(`${name}: not JSON`)
    if (!accept) problems.push(`${name}: no Accept: application/json`)
    let body: Json = null
    try {
      body = JSON.parse(request.body)
    } catch {
      return [...problems, `${name}: the body is not JSON`]
    }
    if (typeof body?.token !== "string" || body.token === "") problems.push(`${name}: token required`)
    for (const key of Object.keys(body ?? {})) if (key !== "token") problems.push(`${name}: ${key} is not a parameter`)
    return problems
  }
  const query = /^\/v3\/company\/(\d+)\/query$/u.exec(url.pathname)
  if (query === null) return [`${name}: no such operation`]
  if (request.method !== "GET") problems.push(`${name}: a query is a GET here`)
  if (!/^Bearer \S+$/u.test(request.headers.authorization ?? "")) problems.push(`${name}: no Bearer token`)
  if (!accept) problems.push(`${name}: no Accept: application/json (the API answers XML otherwise)`)
  for (const key of url.searchParams.keys()) if (key !== "query" && key !== "minorversion") problems.push(`${name}: ${key} is not a parameter`)
  const minor = url.searchParams.get("minorversion")
  if (minor !== null && !/^\d+$/u.test(minor)) problems.push(`${name}: minorversion "${minor}" is not a number`)
  problems.push(...statementProblems(url.searchParams.get("query") ?? "").map((problem) => `${name}: ${problem}`))
  if (request.body !== "") problems.push(`${name}: a body on a GET`)
  return problems
}

const chain = (name: string): Array<Complex> => {
  const found: Array<Complex> = []
  for (let type = description.types[name]; type !== undefined; type = type.base === undefined ? undefined : description.types[type.base]) found.push(type)
  return found
}

/** Problems of a simple value against an XSD simple type. */
const simpleProblems = (type: string, value: Json, at: string): Array<string> => {
  const simple = description.simpleTypes[type]
  if (simple !== undefined) {
    if (simple.enum !== undefined && !simple.enum.includes(String(value))) return [`${at}: ${JSON.stringify(value)} is not one of ${simple.enum.join(", ")}`]
    return simpleProblems(simple.base, value, at)
  }
  switch (type) {
    case "xs:decimal": case "xs:double": case "xs:float":
      return typeof value === "number" && Number.isFinite(value) ? [] : [`${at}: a number expected, not ${JSON.stringify(value)}`]
    case "xs:int": case "xs:integer": case "xs:long": case "xs:positiveInteger": case "xs:nonNegativeInteger":
      return Number.isInteger(value) ? [] : [`${at}: an integer expected, not ${JSON.stringify(value)}`]
    case "xs:boolean":
      return typeof value === "boolean" ? [] : [`${at}: a boolean expected, not ${JSON.stringify(value)}`]
    case "xs:date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/u.test(value) ? [] : [`${at}: a date (YYYY-MM-DD) expected, not ${JSON.stringify(value)}`]
    case "xs:dateTime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? [] : [`${at}: a date-time expected, not ${JSON.stringify(value)}`]
    default:
      return typeof value === "string" ? [] : [`${at}: a string expected, not ${JSON.stringify(value)}`]
  }
}

/** Problems of a JSON value against an XSD type (complex or simple): undeclared fields, wrong types, wrong cardinality. */
export const valueProblems = (type: string, value: Json, at: string): Array<string> => {
  const types = chain(type)
  if (types.length === 0) return simpleProblems(type, value, at)
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: an object (${type}) expected, not ${JSON.stringify(value)}`]
  const simpleContent = types.find((item) => item.value !== undefined)?.value
  return Object.entries(value).flatMap(([key, item]) => {
    const where = `${at}.${key}`
    if (simpleContent !== undefined && key === "value") return simpleProblems(simpleContent, item, where)
    const element = types.map((candidate) => candidate.elements?.[key]).find((found) => found !== undefined)
    if (element !== undefined) {
      if (!element.many) return Array.isArray(item) ? [`${where}: one ${element.type} expected, not a list`] : valueProblems(element.type, item, where)
      return Array.isArray(item) ? item.flatMap((entry, index) => valueProblems(element.type, entry, `${where}[${index}]`)) : [`${where}: a list expected`]
    }
    const attribute = types.map((candidate) => candidate.attributes?.[key]).find((found) => found !== undefined)
    if (attribute !== undefined) return simpleProblems(attribute, item, where)
    return [`${where}: not in the description of ${type}`]
  })
}

/** What is wrong with the answer a fake gave a request. */
export const responseProblems = (request: Recorded): Array<string> => {
  if (request.answer === undefined || !absolute(request.url)) return []
  const url = new URL(request.url)
  const name = `${request.method} ${url.pathname} answer ${request.status}`
  const ok = request.status !== undefined && request.status < 300
  if (url.pathname === paths.token) {
    if (!ok) return typeof request.answer?.error === "string" ? [] : [`${name}: an OAuth error answer has an "error" (RFC 6749 5.2)`]
    const problems = ["access_token", "token_type", "expires_in", "refresh_token", "x_refresh_token_expires_in"]
      .filter((key) => request.answer[key] === undefined).map((key) => `${name}: ${key} missing`)
    return problems
  }
  if (url.pathname === paths.revoke) return ok || typeof request.answer?.error === "string" ? [] : [`${name}: an OAuth error answer has an "error"`]
  const problems = valueProblems("IntuitResponse", request.answer, name)
  if (ok && request.answer?.QueryResponse === undefined) problems.push(`${name}: no QueryResponse`)
  if (!ok) {
    const fault = request.answer?.Fault
    if (fault === undefined) problems.push(`${name}: a refusal carries a Fault`)
    else if (!Array.isArray(fault.Error) || fault.Error.length === 0 || fault.Error.some((error: Json) => typeof error.code !== "string")) problems.push(`${name}: a Fault lists its Errors, each with a code`)
  }
  return problems
}
