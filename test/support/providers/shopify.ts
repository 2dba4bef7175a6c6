import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks requests to the storefront (Shopify's Admin REST API 2024-04 and its OAuth), and the
 * answers a fake gives, against Shopify's own published description (test/fixtures/providers/
 * shopify: the generated REST resources of Shopify's `shopify-api-js`, their documented example
 * answers, and the library's OAuth requests; MIT).
 *
 * Requests: the consent URL is the shop's `/admin/oauth/authorize` with only the library's
 * parameters (`client_id`, `scope`, an absolute `redirect_uri`, `state`; no PKCE, which Shopify's
 * authorization-code grant does not take), scopes named as Shopify names them (`read_orders`);
 * the token call a JSON POST of `client_id`, `client_secret`, `code`; API calls are
 * `/admin/api/2024-04/<resource path>` of a described operation, authenticated by the
 * `X-Shopify-Access-Token` header (not a Bearer token), naming only the operation's parameters,
 * `limit` 1 to 250, and with `page_info` nothing but `limit` and `fields` (Shopify's cursor
 * paging); the uninstall (`DELETE /admin/api_permissions/current.json`) from Shopify's docs.
 *
 * Answers: `{orders: [...]}` and `{shop: {...}}` by the resources' fields and types, each nested
 * object by the keys and JSON types of the documented examples; refusals as `{errors: ...}`; the
 * token answer as `{access_token, scope}`.
 */

type Json = any
interface Shape { readonly types: ReadonlyArray<string>; readonly keys?: Record<string, Shape>; readonly items?: Shape }
interface Resource { readonly paths: ReadonlyArray<{ readonly http_method: string; readonly operation: string; readonly path: string }>; readonly params: { readonly all: ReadonlyArray<string>; readonly count: ReadonlyArray<string> }; readonly fields: Record<string, string> }

const file = fileURLToPath(new URL("../../fixtures/providers/shopify/shopify-admin-2024-04-subset.json", import.meta.url))
export const description: {
  readonly apiVersion: string
  readonly accessTokenHeader: string
  readonly resources: { readonly Order: Resource; readonly Shop: Resource }
  readonly examples: { readonly orders: Shape; readonly shop: Shape }
  readonly oauth: { readonly authorizePath: string; readonly authorizeQuery: ReadonlyArray<string>; readonly tokenPath: string; readonly tokenBody: ReadonlyArray<string> }
} = JSON.parse(readFileSync(file, "utf8"))

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status?: number
  readonly answer?: Json
  readonly answerHeaders?: Readonly<Record<string, string>>
}

/** A `fetch` that records every request, its answer and the answer's headers. */
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
    requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body, status: response.status, answer, answerHeaders: Object.fromEntries(response.headers) })
    return response
  }
  return { fetch, requests }
}

const absolute = (value: string | null) => value !== null && /^https?:\/\//iu.test(value) && URL.canParse(value)
/** Shopify's access scopes are `read_` or `write_` and a resource's plural (its access-scopes page): those of the described resources that need one. */
const scopes = Object.keys(description.resources).filter((name) => name !== "Shop").flatMap((name) => [`read_${name.toLowerCase()}s`, `write_${name.toLowerCase()}s`])
const api = `/admin/api/${description.apiVersion}/`
/** Documented on Shopify's pages, not in the library's resources: the app's own uninstall. */
const uninstall = "/admin/api_permissions/current.json"

/** What is wrong with a consent URL. */
export const consentProblems = (consentUrl: string): Array<string> => {
  if (!absolute(consentUrl)) return [`consent URL ${consentUrl}: not absolute`]
  const url = new URL(consentUrl)
  const problems: Array<string> = []
  if (!url.pathname.endsWith(description.oauth.authorizePath)) problems.push(`consent URL: ${url.pathname} is not ${description.oauth.authorizePath}`)
  for (const key of url.searchParams.keys()) if (!description.oauth.authorizeQuery.includes(key)) problems.push(`consent URL: ${key} is not a parameter`)
  for (const key of ["client_id", "scope", "redirect_uri", "state"]) if ((url.searchParams.get(key) ?? "") === "") problems.push(`consent URL: ${key} required`)
  for (const scope of (url.searchParams.get("scope") ?? "").split(",").filter((item) => item !== "")) {
    if (!scopes.includes(scope)) problems.push(`consent URL: scope "${scope}" is not an access scope of the described resources (${scopes.join(", ")})`)
  }
  if (url.searchParams.get("redirect_uri") !== null && !absolute(url.searchParams.get("redirect_uri"))) problems.push(`consent URL: redirect_uri "${url.searchParams.get("redirect_uri")}" is not absolute`)
  return problems
}

/** The described operation a method and path are, or null. */
const operationOf = (method: string, pathname: string): { readonly resource: Resource; readonly operation: string } | null => {
  if (!pathname.startsWith(api)) return null
  const rest = pathname.slice(api.length)
  for (const resource of Object.values(description.resources)) {
    for (const path of resource.paths) {
      const pattern = new RegExp(`^${path.path.replace(/\./gu, "\\.").replace(/<[^>]+>/gu, "\\d+")}$`, "u")
      if (path.http_method === method.toLowerCase() && pattern.test(rest)) return { resource, operation: path.operation }
    }
  }
  return null
}

/** What is wrong with one request by the description; empty when nothing is. */
export const requestProblems = (request: Recorded): Array<string> => {
  if (!absolute(request.url)) return [`${request.method} ${request.url}: not an absolute URL`]
  const url = new URL(request.url)
  const name = `${request.method} ${url.pathname}`
  const problems: Array<string> = []
  if (url.pathname.endsWith(description.oauth.tokenPath)) {
    if (request.method !== "POST") return [`${name}: the token endpoint takes a POST`]
    if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push(`${name}: not JSON`)
    let body: Json = null
    try {
      body = JSON.parse(request.body)
    } catch {
      return [...problems, `${name}: the body is not JSON`]
    }
    for (const key of description.oauth.tokenBody) if (typeof body?.[key] !== "string" || body[key] === "") problems.push(`${name}: ${key} required`)
    for (const key of Object.keys(body ?? {})) if (!description.oauth.tokenBody.includes(key)) problems.push(`${name}: ${key} is not a parameter`)
    return problems
  }
  const token = request.headers[description.accessTokenHeader.toLowerCase()] ?? ""
  if (token === "") problems.push(`${name}: no ${description.accessTokenHeader} header`)
  if ((request.headers.authorization ?? "") !== "") problems.push(`${name}: an Authorization header (the Admin API reads ${description.accessTokenHeader})`)
  if (url.pathname === uninstall) return request.method === "DELETE" ? problems : [...problems, `${name}: the uninstall is a DELETE`]
  const found = operationOf(request.method, url.pathname)
  if (found === null) return [...problems, `${name}: no such operation in API ${description.apiVersion}`]
  const allowed = found.operation === "count" ? found.resource.params.count : found.operation === "get" ? [...found.resource.params.all, "page_info"] : []
  for (const key of url.searchParams.keys()) if (!allowed.includes(key)) problems.push(`${name}: ${key} is not a parameter`)
  const limit = url.searchParams.get("limit")
  if (limit !== null && !(/^\d+$/u.test(limit) && Number(limit) >= 1 && Number(limit) <= 250)) problems.push(`${name}: limit "${limit}" is not 1 to 250`)
  if (url.searchParams.has("page_info")) {
    for (const key of url.searchParams.keys()) if (!["page_info", "limit", "fields"].includes(key)) problems.push(`${name}: ${key} beside page_info (a page's link carries the filters)`)
  }
  for (const key of ["updated_at_min", "updated_at_max", "created_at_min", "created_at_max"]) {
    const value = url.searchParams.get(key)
    if (value !== null && (!/^\d{4}-\d{2}-\d{2}T/u.test(value) || Number.isNaN(Date.parse(value)))) problems.push(`${name}: ${key} "${value}" is not an ISO 8601 time`)
  }
  if (request.body !== "") problems.push(`${name}: a body on a ${request.method}`)
  return problems
}

const kindOf = (value: Json) => value === null ? "null" : Array.isArray(value) ? "array" : typeof value

/** Problems of a value against a field's TypeScript type in the generated resource (`string | null`, `{[key: string]: unknown}[] | null`, ...). */
const fieldProblems = (type: string, value: Json, at: string): Array<string> => {
  const kind = kindOf(value)
  const accepts: Array<string> = type.split(" | ").map((option) =>
    option === "null" ? "null" : option === "string" ? "string" : option === "number" ? "number" : option === "boolean" ? "boolean" : option.endsWith("[]") ? "array" : "object")
  return accepts.includes(kind) ? [] : [`${at}: ${JSON.stringify(value)} is not ${type}`]
}

/** Problems of a value against the shape of the documented examples (a `null` there says nothing about the type). */
export const shapeProblems = (shape: Shape | undefined, value: Json, at: string): Array<string> => {
  if (shape === undefined) return []
  const kind = kindOf(value)
  const known = shape.types.filter((type) => type !== "null")
  if (kind !== "null" && known.length > 0 && !known.includes(kind)) return [`${at}: a ${kind} where the examples have ${known.join(" or ")}`]
  if (kind === "array") return (value as Array<Json>).flatMap((item, index) => shapeProblems(shape.items, item, `${at}[${index}]`))
  if (kind === "object" && shape.keys !== undefined) {
    return Object.entries(value).flatMap(([key, item]) =>
      shape.keys![key] === undefined ? [`${at}.${key}: not in the documented examples`] : shapeProblems(shape.keys![key], item, `${at}.${key}`))
  }
  return []
}

/** One order of an answer: its fields by the resource, its nested objects by the examples. */
export const orderProblems = (order: Json, at: string): Array<string> => {
  const fields = description.resources.Order.fields
  const example = description.examples.orders.keys!.orders!.items!.keys!
  return Object.entries(order ?? {}).flatMap(([key, value]) => {
    if (fields[key] === undefined && example[key] === undefined) return [`${at}.${key}: not a field of Order`]
    return [...(fields[key] === undefined ? [] : fieldProblems(fields[key], value, `${at}.${key}`)), ...shapeProblems(example[key], value, `${at}.${key}`)]
  })
}

/** What is wrong with the answer a fake gave a request. */
export const responseProblems = (request: Recorded): Array<string> => {
  if (!absolute(request.url) || request.answer === undefined) return []
  const url = new URL(request.url)
  const name = `${request.method} ${url.pathname} answer ${request.status}`
  const ok = request.status !== undefined && request.status < 300
  if (url.pathname.endsWith(description.oauth.tokenPath)) {
    if (!ok) return request.answer?.error !== undefined || request.answer?.errors !== undefined ? [] : [`${name}: a refusal carries error or errors`]
    return ["access_token", "scope"].filter((key) => typeof request.answer[key] !== "string").map((key) => `${name}: ${key} missing`)
  }
  if (!ok) {
    const errors = request.answer?.errors
    const problems = typeof errors === "string" || (errors !== null && typeof errors === "object") ? [] : [`${name}: a refusal carries "errors"`]
    if (request.status === 429 && (request.answerHeaders?.["retry-after"] ?? "") === "") problems.push(`${name}: a 429 says when to retry (Retry-After)`)
    return problems
  }
  if (url.pathname.endsWith("/orders.json")) {
    const orders = request.answer?.orders
    if (!Array.isArray(orders)) return [`${name}: no orders list`]
    return orders.flatMap((order: Json, index: number) => orderProblems(order, `${name}.orders[${index}]`))
  }
  if (url.pathname.endsWith("/shop.json")) {
    const shop = request.answer?.shop
    if (shop === undefined) return [`${name}: no shop`]
    const fields = description.resources.Shop.fields
    return Object.entries(shop).flatMap(([key, value]) => fields[key] === undefined ? [`${name}.shop.${key}: not a field of Shop`] : fieldProblems(fields[key], value, `${name}.shop.${key}`))
  }
  return []
}

/** The `rel="next"` URL of a Link header, as the library reads it. */
export const nextLink = (link: string | undefined): string | null => {
  for (const part of (link ?? "").split(", ")) {
    const match = /<([^<]+)>; rel="([^"]+)"/u.exec(part)
    if (match?.[2] === "next") return match[1]!
  }
  return null
}
