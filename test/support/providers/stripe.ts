import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks requests to the card processor, and the answers and events a fake gives, against Stripe's
 * own published OpenAPI description (test/fixtures/providers/stripe: API 2023-08-16, MIT).
 *
 * Requests: the operation exists (method and path template); the Bearer key; a POST's body is
 * `application/x-www-form-urlencoded` and, decoded as Stripe reads it (`a[b][0][c]=v`), every key
 * is a declared parameter of the right type, enum and length, with every required one there; a
 * GET's query names only declared parameters; creates carry an `Idempotency-Key`, and what happens
 * on a connected account names it in `Stripe-Account`. Beyond the schema, what the real service enforces
 * at run time: any `*_url` it will send a person to is an absolute http(s) URL ("Not a valid URL").
 *
 * Answers and events: every field given is declared in the object's schema with a matching type
 * (the fakes answer a subset of each object, so `required` is not asked of them); refusals have
 * the error shape `{error: {type, message, param?}}`.
 */

type Json = any
interface Schema { readonly [key: string]: Json }

const file = fileURLToPath(new URL("../../fixtures/providers/stripe/stripe-openapi-subset.json", import.meta.url))
export const description: { readonly info: { readonly version: string }; readonly paths: Record<string, Record<string, Json>>; readonly components: { readonly schemas: Record<string, Schema> } } =
  JSON.parse(readFileSync(file, "utf8"))

export interface Recorded {
  readonly method: string
  /** The path with its query, as received. */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status?: number
  readonly answer?: Json
}

const resolve = (schema: Schema): Schema => {
  let found = schema
  for (let depth = 0; found?.$ref !== undefined && depth < 20; depth++) found = description.components.schemas[String(found.$ref).replace("#/components/schemas/", "")]!
  return found
}

/** The operation a request is for: its path template and operation, or null. */
export const operationOf = (method: string, pathname: string): { readonly template: string; readonly operation: Json } | null => {
  for (const [template, operations] of Object.entries(description.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/gu, "[^/]+")}$`, "u")
    const operation = operations[method.toLowerCase()]
    if (operation !== undefined && pattern.test(pathname)) return { template, operation }
  }
  return null
}

/** `a[b][0][c]=v` pairs -> nested objects and arrays, as the processor reads a form. */
export const formDecode = (text: string): Json => {
  const root: Json = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/gu, "").split("[")
    let node = root
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value
      else node = node[part] ??= /^\d+$/u.test(path[index + 1]!) ? [] : {}
    })
  }
  return root
}

/** Problems of a form value (always text, or nested objects and arrays of text) against a request schema. */
const formProblems = (raw: Schema, value: Json, at: string): Array<string> => {
  const schema = resolve(raw)
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    const options = (schema.anyOf ?? schema.oneOf) as Array<Schema>
    const each = options.map((option) => formProblems(option, value, at))
    return each.some((problems) => problems.length === 0) ? [] : each.sort((a, b) => a.length - b.length)[0]!
  }
  if (schema.enum !== undefined && typeof value === "string" && !schema.enum.map(String).includes(value)) return [`${at}: "${value}" is not one of ${schema.enum.join(", ")}`]
  switch (schema.type) {
    case "string":
      if (typeof value !== "string") return [`${at}: a string expected`]
      return schema.maxLength !== undefined && value.length > schema.maxLength ? [`${at}: longer than ${schema.maxLength}`] : []
    case "integer":
      return typeof value === "string" && /^-?\d+$/u.test(value) ? [] : [`${at}: an integer expected, not ${JSON.stringify(value)}`]
    case "number":
      return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? [] : [`${at}: a number expected`]
    case "boolean":
      return value === "true" || value === "false" ? [] : [`${at}: true or false expected`]
    case "array": {
      if (!Array.isArray(value)) return [`${at}: an array expected (${at}[0]=...)`]
      return value.flatMap((item, index) => item === undefined ? [`${at}[${index}]: a gap in the indexes`] : formProblems(schema.items ?? {}, item, `${at}[${index}]`))
    }
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: an object expected`]
      const problems: Array<string> = []
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      const named = (key: string) => at === "" ? key : `${at}[${key}]`
      for (const [key, item] of Object.entries(value)) {
        const declared = properties[key]
        if (declared !== undefined) problems.push(...formProblems(declared, item, named(key)))
        else if (typeof schema.additionalProperties === "object") problems.push(...formProblems(schema.additionalProperties, item, named(key)))
        else if (schema.properties !== undefined || schema.additionalProperties === false) problems.push(`${named(key)}: not a parameter`)
      }
      for (const key of (schema.required ?? []) as Array<string>) if (value[key] === undefined) problems.push(`${named(key)}: required`)
      return problems
    }
    default:
      return []
  }
}

/** Every `*_url` parameter, anywhere in the body: the processor sends people there, so it must be absolute. */
const urlProblems = (value: Json, at: string): Array<string> => {
  if (value === null || typeof value !== "object") return []
  return Object.entries(value).flatMap(([key, item]) => {
    const where = at === "" ? key : `${at}[${key}]`
    if (key.endsWith("_url") && typeof item === "string") {
      return /^https?:\/\//iu.test(item) && URL.canParse(item) ? [] : [`${where}: "${item}" is not a valid URL (absolute http or https)`]
    }
    return urlProblems(item, where)
  })
}

/** Creates that move money or make objects: a retry must not make a second one (Stripe's `Idempotency-Key`). */
const idempotent = ["/v1/accounts", "/v1/payment_intents", "/v1/refunds", "/v1/checkout/sessions"]
/** What happens on a connected account, named in the `Stripe-Account` header (else it happens on the platform's own). */
const connected = /^\/v1\/(payment_intents|refunds|payouts|balance_transactions)(\/|$)/u

/** What is wrong with one request by the description; empty when nothing is. */
export const requestProblems = (request: Recorded, options: { readonly connectedBy?: "header" | "token" } = {}): Array<string> => {
  const url = new URL(request.path, "http://processor.invalid")
  const found = operationOf(request.method, url.pathname)
  const name = `${request.method} ${url.pathname}`
  if (found === null) return [`${name}: no such operation`]
  const problems: Array<string> = []
  if (!/^Bearer \S+$/u.test(request.headers.authorization ?? "")) problems.push(`${name}: no Bearer key`)
  if (request.method === "POST" && idempotent.includes(url.pathname) && (request.headers["idempotency-key"] ?? "") === "") problems.push(`${name}: no Idempotency-Key`)
  // With an OAuth access token (a connection to the merchant's own account) the token names the account.
  if (options.connectedBy !== "token" && connected.test(url.pathname) && !/^acct_/u.test(request.headers["stripe-account"] ?? "")) problems.push(`${name}: no Stripe-Account header naming the connected account`)
  const parameters = (found.operation.parameters ?? []) as Array<Json>
  const query = formDecode(url.search.slice(1))
  for (const [key, value] of Object.entries(query)) {
    const parameter = parameters.find((item) => item.in === "query" && item.name === key)
    if (parameter === undefined) problems.push(`${name}: query ${key} is not a parameter`)
    else problems.push(...formProblems(parameter.schema, value, key).map((problem) => `${name}: query ${problem}`))
  }
  if (request.method === "POST") {
    const content = found.operation.requestBody?.content ?? {}
    const form = content["application/x-www-form-urlencoded"]
    if (form === undefined) return [...problems, `${name}: takes no form body`]
    if (!(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) problems.push(`${name}: not form-encoded`)
    const body = formDecode(request.body)
    problems.push(...formProblems(form.schema, body, "").map((problem) => `${name}: ${problem}`))
    problems.push(...urlProblems(body, "").map((problem) => `${name}: ${problem}`))
  } else if (request.body !== "") problems.push(`${name}: a body on a ${request.method}`)
  return problems
}

/** Problems of an answer's value against a response schema: undeclared fields and wrong types. */
export const answerProblems = (raw: Schema, value: Json, at: string): Array<string> => {
  const schema = resolve(raw)
  if (value === null) return schema.nullable === true || schema.anyOf !== undefined ? [] : [`${at}: null where the description has no null`]
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    const options = (schema.anyOf ?? schema.oneOf) as Array<Schema>
    const each = options.map((option) => answerProblems(option, value, at))
    return each.some((problems) => problems.length === 0) ? [] : each.sort((a, b) => a.length - b.length)[0]!
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(", ")}`]
  switch (schema.type) {
    case "string":
      return typeof value === "string" ? [] : [`${at}: a string expected, not ${JSON.stringify(value)}`]
    case "integer":
      return Number.isInteger(value) ? [] : [`${at}: an integer expected, not ${JSON.stringify(value)}`]
    case "number":
      return typeof value === "number" ? [] : [`${at}: a number expected`]
    case "boolean":
      return typeof value === "boolean" ? [] : [`${at}: a boolean expected, not ${JSON.stringify(value)}`]
    case "array":
      return Array.isArray(value) ? value.flatMap((item, index) => answerProblems(schema.items ?? {}, item, `${at}[${index}]`)) : [`${at}: an array expected`]
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return [`${at}: an object expected`]
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      return Object.entries(value).flatMap(([key, item]) => {
        if (properties[key] !== undefined) return answerProblems(properties[key], item, `${at}.${key}`)
        if (typeof schema.additionalProperties === "object") return answerProblems(schema.additionalProperties, item, `${at}.${key}`)
        return schema.properties === undefined ? [] : [`${at}.${key}: not in the description`]
      })
    }
    default:
      return []
  }
}

/** What is wrong with the answer a fake gave a request: its 200 object, or its error body. */
export const responseProblems = (request: Recorded): Array<string> => {
  const url = new URL(request.path, "http://processor.invalid")
  const found = operationOf(request.method, url.pathname)
  if (found === null || request.answer === undefined) return []
  const name = `${request.method} ${url.pathname} answer`
  const ok = request.status !== undefined && request.status < 300
  const schema = ok ? found.operation.responses?.["200"]?.content?.["application/json"]?.schema : { $ref: "#/components/schemas/error" }
  return schema === undefined ? [`${name}: no 200 answer described`] : answerProblems(schema, request.answer, name)
}

/** Schema names of the objects events carry (`data.object.object`). */
const objectSchemas: Readonly<Record<string, string>> = {
  account: "account", payment_intent: "payment_intent", refund: "refund", dispute: "dispute", payout: "payout",
  subscription: "subscription", "checkout.session": "checkout.session", invoice: "invoice"
}

/** What is wrong with an event a fake sends: the envelope, and the object it carries by its own schema. */
export const eventProblems = (payload: string): Array<string> => {
  const event = JSON.parse(payload) as Json
  const problems = answerProblems({ $ref: "#/components/schemas/event" }, { ...event, data: {} }, `event ${event.type}`)
  const object = event.data?.object
  const schema = objectSchemas[String(object?.object)]
  if (schema === undefined) return [...problems, `event ${event.type}: carries an object of unknown kind ${String(object?.object)}`]
  return [...problems, ...answerProblems({ $ref: `#/components/schemas/${schema}` }, object, `event ${event.type} data.object`)]
}
