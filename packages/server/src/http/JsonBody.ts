import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, type HttpServerRequest } from "effect/http"
import { ApiError, Limits } from "@ledger/api"
import * as SlowClients from "./SlowClients.ts"

/** True when a parsed JSON value nests deeper than `max` arrays and objects. */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== "object") continue
    if (depth >= max) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | null => {
  const value = request.headers[name]
  return typeof value === "string" && value !== "" ? value : null
}

/**
 * Reads a JSON body within the size limit and its deadline. Bodies are small (the largest, a
 * receipt, is 20 MB of base64 and has its own limit), so reading whole is fine once the size is bounded.
 * A read before the credential is known (`unauthenticated`) counts against its address (SlowClients.ts `ReadGate`).
 */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytesMax: number,
  bodyTimeoutMs: number,
  unauthenticated?: SlowClients.Unauthenticated
) =>
  Effect.gen(function*() {
    const declared = Number(header(request, "content-length") ?? "0")
    if (declared > bytesMax) {
      return yield* Effect.fail(ApiError.fail("payload_too_large", `The body exceeds ${bytesMax} bytes.`, { bytes_max: bytesMax }))
    }
    // A body without a Content-Length (chunked) is read only up to the limit, never whole.
    const text = yield* SlowClients.readBodyWithin(request, bytesMax, bodyTimeoutMs, request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bytesMax)),
      Effect.mapError(() => ApiError.fail("payload_too_large", `The body exceeds ${bytesMax} bytes.`, { bytes_max: bytesMax }))
    ), unauthenticated)
    if (new TextEncoder().encode(text).byteLength > bytesMax) {
      return yield* Effect.fail(ApiError.fail("payload_too_large", `The body exceeds ${bytesMax} bytes.`, { bytes_max: bytesMax }))
    }
    if (text.trim() === "") return { value: undefined, text }
    const contentType = header(request, "content-type")
    if (contentType !== null && !/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) {
      return yield* Effect.fail(ApiError.fail("unsupported_media_type", "Bodies are JSON: send Content-Type: application/json."))
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (cause) {
      return yield* Effect.fail(ApiError.invalidRequest([{ path: ["body"], message: `Not valid JSON: ${(cause as Error).message}` }], "The body is not valid JSON."))
    }
    if (nestsDeeperThan(parsed, Limits.requestBodyDepthMax)) {
      return yield* Effect.fail(ApiError.invalidRequest(
        [{ path: ["body"], message: `Nested deeper than ${Limits.requestBodyDepthMax} levels` }],
        "The body is nested too deeply."
      ))
    }
    return { value: parsed, text }
  })
