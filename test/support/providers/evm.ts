import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { checker } from "./contract-schema.ts"

/**
 * Checks JSON-RPC calls to an EVM node, and the answers the fake chain gives, against the Ethereum
 * execution APIs' own OpenRPC description (test/fixtures/providers/evm: `eth_blockNumber`,
 * `eth_getLogs`, CC0) and the JSON-RPC 2.0 envelope it is carried in.
 *
 * Calls: a POST of `application/json`; `{jsonrpc: "2.0", id, method, params}` with a string or
 * number id; a method of the description; its parameters by position, none missing that is
 * required and none beyond those declared, each by its schema (a filter names only
 * `fromBlock`, `toBlock`, `address`, `topics` or `blockHash`, with hex quantities without leading
 * zeros, 20-byte addresses and 32-byte topics).
 *
 * Answers: HTTP 200; the envelope with the call's id and exactly one of `result` and `error`; a
 * result by the method's result schema (a log only with the fields a log has); an error with an
 * integer `code` and a `message`.
 */

type Json = any

const file = fileURLToPath(new URL("../../fixtures/providers/evm/execution-apis-subset.json", import.meta.url))
export const description: {
  readonly methods: ReadonlyArray<{ readonly name: string; readonly params: ReadonlyArray<{ readonly name: string; readonly required?: boolean; readonly schema: Json }>; readonly result: { readonly schema: Json } }>
  readonly components: { readonly schemas: Record<string, Json> }
  readonly examples: ReadonlyArray<{ readonly name: string; readonly request: Json; readonly response: Json }>
} = JSON.parse(readFileSync(file, "utf8"))

const { problems } = checker(description.components.schemas)

export interface Call {
  readonly method: string
  readonly contentType: string
  readonly body: string
  readonly status?: number
  readonly answer?: string
}

/** What is wrong with one JSON-RPC call by the description; empty when nothing is. */
export const callProblems = (call: Json, name = String(call?.method)): Array<string> => {
  const found: Array<string> = []
  if (call?.jsonrpc !== "2.0") found.push(`${name}: jsonrpc is not "2.0"`)
  if (typeof call?.id !== "string" && typeof call?.id !== "number") found.push(`${name}: no id (a string or a number)`)
  const method = description.methods.find((candidate) => candidate.name === call?.method)
  if (method === undefined) return [...found, `${name}: no such method`]
  const params: Array<Json> = call.params === undefined ? [] : call.params
  if (!Array.isArray(params)) return [...found, `${name}: params by position expected`]
  if (params.length > method.params.length) found.push(`${name}: ${params.length} params, the method takes ${method.params.length}`)
  method.params.forEach((param, index) => {
    if (params[index] === undefined) {
      if (param.required === true) found.push(`${name}: param ${param.name} is required`)
    } else found.push(...problems(param.schema, params[index], `${name} ${param.name}`, "request"))
  })
  return found
}

/** What is wrong with an answer to a call; empty when nothing is. */
export const answerProblems = (call: Json, answer: Json, name = `${String(call?.method)} answer`): Array<string> => {
  if (answer?.jsonrpc !== "2.0") return [`${name}: jsonrpc is not "2.0"`]
  const found = answer.id === call?.id ? [] : [`${name}: id ${JSON.stringify(answer.id)} is not the call's ${JSON.stringify(call?.id)}`]
  if (("result" in answer) === ("error" in answer)) return [...found, `${name}: exactly one of result and error`]
  if ("error" in answer) {
    const error = answer.error
    return Number.isInteger(error?.code) && typeof error?.message === "string" ? found : [...found, `${name}: an error needs an integer code and a message`]
  }
  const method = description.methods.find((candidate) => candidate.name === call?.method)
  return method === undefined ? found : [...found, ...problems(method.result.schema, answer.result, `${name} result`, "answer")]
}

/** Both, for a recorded HTTP exchange. */
export const exchangeProblems = (exchange: Call): Array<string> => {
  let call: Json
  try {
    call = JSON.parse(exchange.body)
  } catch {
    return ["the body is not JSON"]
  }
  const name = String(call?.method)
  const transport = [
    ...(exchange.method === "POST" ? [] : [`${name}: sent with ${exchange.method}, not POST`]),
    ...(exchange.contentType.startsWith("application/json") ? [] : [`${name}: not application/json`])
  ]
  if (exchange.answer === undefined) return [...transport, ...callProblems(call)]
  if (exchange.status !== 200) return [...transport, ...callProblems(call), `${name}: HTTP ${exchange.status}`]
  return [...transport, ...callProblems(call), ...answerProblems(call, JSON.parse(exchange.answer))]
}
