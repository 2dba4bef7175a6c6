import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { request, text } from "./Http.ts"

// JSON-RPC 2.0, with HTTP digest authentication (RFC 7616, MD5 and qop=auth, as monero-wallet-rpc asks)

const md5 = (value: string) => createHash("md5").update(value).digest("hex")

/** The Authorization header answering a `WWW-Authenticate: Digest ...` challenge. */
export const digestAuthorization = (challenge: string, login: string, method: string, uri: string, cnonce = randomBytes(8).toString("hex")): string => {
  const fields = Object.fromEntries([...challenge.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/gu)].map((match) => [match[1]!.toLowerCase(), match[2] ?? match[3] ?? ""]))
  const colon = login.indexOf(":")
  const user = login.slice(0, colon)
  const password = login.slice(colon + 1)
  const realm = fields.realm ?? ""
  const nonce = fields.nonce ?? ""
  const qop = (fields.qop ?? "").split(",").map((item) => item.trim()).includes("auth") ? "auth" : null
  const nc = "00000001"
  const ha1 = md5(`${user}:${realm}:${password}`)
  const ha2 = md5(`${method}:${uri}`)
  const response = qop === null ? md5(`${ha1}:${nonce}:${ha2}`) : md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
  return [
    `Digest username="${user}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${uri}"`, `response="${response}"`, `algorithm=MD5`,
    ...(qop === null ? [] : [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`]),
    ...(fields.opaque === undefined ? [] : [`opaque="${fields.opaque}"`])
  ].join(", ")
}

/** A JSON-RPC error answer (as opposed to a transport failure, a string). */
export class RpcError {
  constructor(readonly code: number, readonly message: string) {}
}

/**
 * One JSON-RPC 2.0 call. Integers that may pass 2^53 (piconero and token amounts) are read as
 * strings: `bigFields` names the JSON keys whose integer values are kept exact.
 */
export const rpc = (url: string, method: string, params: unknown, options: { readonly login?: string | undefined; readonly bigFields?: ReadonlyArray<string> } = {}) =>
  Effect.gen(function*() {
    const body = JSON.stringify({ jsonrpc: "2.0", id: "0", method, params })
    const post = (authorization?: string) =>
      request(url, { method: "POST", headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) }, body })
    let response = yield* post()
    const challenge = response.headers.get("www-authenticate")
    if (response.status === 401 && options.login !== undefined && challenge !== null && /^Digest /iu.test(challenge)) {
      yield* text(response)
      const target = new URL(url)
      response = yield* post(digestAuthorization(challenge, options.login, "POST", `${target.pathname}${target.search}`))
    }
    if (!response.ok) return yield* Effect.fail(`${response.status} from ${new URL(url).host}`)
    let raw = yield* text(response)
    for (const field of options.bigFields ?? []) raw = raw.replace(new RegExp(`"${field}"\\s*:\\s*(\\d+)`, "gu"), `"${field}":"$1"`)
    const parsed = yield* Effect.try({ try: () => JSON.parse(raw) as { result?: unknown; error?: { code?: number; message?: string } }, catch: () => "not JSON" })
    if (parsed.error !== undefined && parsed.error !== null) return yield* Effect.fail(new RpcError(Number(parsed.error.code ?? 0), String(parsed.error.message ?? "error")))
    return parsed.result
  })
