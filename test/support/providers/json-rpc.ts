import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { checker } from "./contract-schema.ts"

/**
 * A contract harness for a JSON-RPC 2.0 service described in the OpenRPC shape (issue 39): the
 * descriptions written in this repository for the services that publish none machine-readable
 * (Solana's JSON-RPC, monero-wallet-rpc; test/fixtures/providers/<provider>), read the way
 * evm.ts reads the Ethereum execution APIs' own.
 *
 * Calls: a POST of `application/json`; `{jsonrpc: "2.0", id, method, params}` with a string or
 * number id; a method of the description; its parameters by position (`paramStructure`
 * `by-position`, an array: none missing that is required, none beyond those declared) or by name
 * (`by-name`, one object), each by its schema, a field the description does not have refused (the
 * real service would ignore it or refuse it; either way the adapter meant something else).
 *
 * Answers: HTTP 200; the envelope with the call's id and exactly one of `result` and `error`; a
 * result by the method's result schema; an error with an integer `code` and a `message`, the code
 * one of JSON-RPC's own (-32700, -32600 to -32603) or of the description's `errors`.
 */

type Json = any

export interface Description {
  readonly info: { readonly title: string; readonly version: string }
  readonly methods: ReadonlyArray<{
    readonly name: string
    readonly paramStructure?: "by-position" | "by-name"
    readonly params: ReadonlyArray<{ readonly name: string; readonly required?: boolean; readonly schema: Json }>
    readonly result: { readonly schema: Json }
  }>
  readonly components: { readonly schemas: Record<string, Json> }
  readonly errors?: ReadonlyArray<{ readonly code: number; readonly message: string }>
}

export interface Exchange {
  readonly method: string
  readonly contentType: string
  readonly body: string
  readonly status?: number
  readonly answer?: string
}

const jsonRpcCodes = new Set([-32700, -32600, -32601, -32602, -32603])

export const load = (provider: string, file: string): Description =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/providers/${provider}/${file}`, import.meta.url)), "utf8"))

export const harness = (description: Description) => {
  const { problems } = checker(description.components.schemas)
  const codes = new Set([...jsonRpcCodes, ...(description.errors ?? []).map((error) => error.code)])
  const methodOf = (name: unknown) => description.methods.find((candidate) => candidate.name === name)

  /** What is wrong with one call by the description; empty when nothing is. */
  const callProblems = (call: Json, name = String(call?.method)): Array<string> => {
    const found: Array<string> = []
    if (call?.jsonrpc !== "2.0") found.push(`${name}: jsonrpc is not "2.0"`)
    if (typeof call?.id !== "string" && typeof call?.id !== "number") found.push(`${name}: no id (a string or a number)`)
    const method = methodOf(call?.method)
    if (method === undefined) return [...found, `${name}: no such method`]
    if (method.paramStructure === "by-name") {
      const param = method.params[0]!
      if (call.params === undefined) return param.required === true ? [...found, `${name}: params are required`] : found
      if (typeof call.params !== "object" || call.params === null || Array.isArray(call.params)) return [...found, `${name}: params by name (an object) expected`]
      return [...found, ...problems(param.schema, call.params, `${name} params`, "request")]
    }
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
  const answerProblems = (call: Json, answer: Json, name = `${String(call?.method)} answer`): Array<string> => {
    if (answer?.jsonrpc !== "2.0") return [`${name}: jsonrpc is not "2.0"`]
    const found = answer.id === call?.id ? [] : [`${name}: id ${JSON.stringify(answer.id)} is not the call's ${JSON.stringify(call?.id)}`]
    if (("result" in answer) === ("error" in answer)) return [...found, `${name}: exactly one of result and error`]
    if ("error" in answer) {
      const error = answer.error
      if (!Number.isInteger(error?.code) || typeof error?.message !== "string") return [...found, `${name}: an error needs an integer code and a message`]
      return codes.has(error.code) ? found : [...found, `${name}: error code ${error.code} is not one the service has`]
    }
    const method = methodOf(call?.method)
    return method === undefined ? found : [...found, ...problems(method.result.schema, answer.result, `${name} result`, "answer")]
  }

  /** Both, for a recorded HTTP exchange. */
  const exchangeProblems = (exchange: Exchange): Array<string> => {
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

  return { description, callProblems, answerProblems, exchangeProblems }
}
