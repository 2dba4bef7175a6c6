import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { checker } from "./contract-schema.ts"

/**
 * Checks requests to the crypto price source, and the answers of the testkit's fake, against the
 * price API's description (test/fixtures/providers/prices: Ledger's own interface, OpenAPI 3.0).
 * Requests: a GET of a path of the description, with exactly its query parameters (required ones
 * present, each by its schema, none repeated or unknown). Answers: a status the operation lists,
 * JSON, by that status's schema.
 */

type Json = any

const file = fileURLToPath(new URL("../../fixtures/providers/prices/ledger-price-api.json", import.meta.url))
export const description: Json = JSON.parse(readFileSync(file, "utf8"))
const { problems } = checker(description.components.schemas)

export interface Exchange {
  readonly method: string
  /** The path with its query. */
  readonly url: string
  readonly status?: number
  readonly answer?: string
}

const operationOf = (method: string, path: string) => description.paths[path]?.[method.toLowerCase()]

export const requestProblems = (exchange: Exchange): Array<string> => {
  const url = new URL(exchange.url, "http://price.test")
  const name = `${exchange.method} ${url.pathname}`
  const operation = operationOf(exchange.method, url.pathname)
  if (operation === undefined) return [`${name}: no such operation`]
  const found: Array<string> = []
  const declared = new Set((operation.parameters as Array<Json>).map((parameter) => parameter.name))
  for (const key of new Set(url.searchParams.keys())) {
    if (!declared.has(key)) found.push(`${name}: ${key} is not a parameter`)
    else if (url.searchParams.getAll(key).length > 1) found.push(`${name}: ${key} given more than once`)
  }
  for (const parameter of operation.parameters as Array<Json>) {
    const value = url.searchParams.get(parameter.name)
    if (value === null) {
      if (parameter.required === true) found.push(`${name}: ${parameter.name} is required`)
    } else found.push(...problems(parameter.schema, value, `${name} ${parameter.name}`, "request"))
  }
  return found
}

export const responseProblems = (exchange: Exchange): Array<string> => {
  const url = new URL(exchange.url, "http://price.test")
  const name = `${exchange.method} ${url.pathname} answer ${exchange.status}`
  const operation = operationOf(exchange.method, url.pathname)
  if (operation === undefined) return []
  const response = operation.responses[String(exchange.status)]
  if (response === undefined) return [`${name}: not a status the operation answers`]
  let body: Json
  try {
    body = JSON.parse(exchange.answer ?? "")
  } catch {
    return [`${name}: not JSON`]
  }
  return problems(response.content["application/json"].schema, body, name, "answer")
}
