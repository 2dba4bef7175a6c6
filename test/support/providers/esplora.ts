import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks requests to an Esplora server, and the answers the fake chain gives, against Esplora's
 * published API reference (test/fixtures/providers/esplora: API.md turned into JSON, MIT). Esplora
 * publishes prose only, so what is checked is what the prose says:
 *
 * Requests: a GET, without a body, of a documented endpoint (`/blocks/tip/height`,
 * `/address/:address/txs`, `/address/:address/txs/chain[/:last_seen_txid]`).
 *
 * Answers: the tip's height as a bare integer; a list of transactions, newest first, at most 50
 * mempool ones and 25 confirmed (25 confirmed a page on `/chain`); each transaction with only the
 * fields of "Transaction format" (not the Elements-only ones: Bitcoin, not Liquid), and those a
 * Bitcoin transaction always has (`txid`, `version`, `locktime`, `size`, `weight`, `fee`, `vin`,
 * `vout`, `status`; an output's `scriptpubkey*` and `value`; an input's `txid`, `vout`,
 * `is_coinbase`, `scriptsig*`, `sequence`, `prevout`); a confirmed status with its block's height,
 * hash and time ("available for confirmed transactions").
 */

type Json = any
interface Field { readonly array: boolean; readonly elementsOnly: boolean; readonly fields?: Record<string, Field> }

const file = fileURLToPath(new URL("../../fixtures/providers/esplora/esplora-api-subset.json", import.meta.url))
export const description: { readonly endpoints: ReadonlyArray<{ readonly endpoint: string }>; readonly transaction: Record<string, Field> } =
  JSON.parse(readFileSync(file, "utf8"))

/** `GET /address/:address/txs/chain[/:last_seen_txid]` -> a pattern of the paths it names. */
const patternOf = (endpoint: string) =>
  new RegExp(`^${endpoint.replace(/^GET /u, "").replace(/\[([^\]]+)\]/gu, "(?:$1)?").replace(/:[a-z_]+/gu, "[^/]+")}$`, "u")
const patterns = description.endpoints.map(({ endpoint }) => ({ endpoint, pattern: patternOf(endpoint) }))

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly body: string
  readonly status?: number
  readonly answer?: string
}

const always: Readonly<Record<string, ReadonlyArray<string>>> = {
  transaction: ["txid", "version", "locktime", "size", "weight", "fee", "vin", "vout", "status"],
  vin: ["txid", "vout", "is_coinbase", "scriptsig", "scriptsig_asm", "sequence", "prevout"],
  vout: ["scriptpubkey", "scriptpubkey_asm", "scriptpubkey_type", "value"],
  prevout: ["scriptpubkey", "scriptpubkey_asm", "scriptpubkey_type", "value"],
  status: ["confirmed"]
}

/** A documented object's problems: undocumented or Elements-only fields, and missing ones. */
const objectProblems = (fields: Record<string, Field>, value: Json, kind: string, at: string): Array<string> => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: an object expected`]
  const found: Array<string> = (always[kind] ?? []).filter((key) => !(key in value)).map((key) => `${at}.${key}: missing`)
  for (const [key, item] of Object.entries(value)) {
    const field = fields[key]
    if (field === undefined || field.elementsOnly) {
      found.push(`${at}.${key}: not in the transaction format`)
      continue
    }
    // "`prevout` (previous output in the same format as in `vout` below)"; null on a coinbase input.
    const nested = key === "prevout" ? description.transaction.vout!.fields : field.fields
    if (nested === undefined || item === null) continue
    if (field.array) {
      if (!Array.isArray(item)) found.push(`${at}.${key}: a list expected`)
      else item.forEach((entry, index) => found.push(...objectProblems(nested, entry, key, `${at}.${key}[${index}]`)))
    } else found.push(...objectProblems(nested, item, key, `${at}.${key}`))
  }
  if (kind === "status" && value.confirmed === true) {
    for (const key of ["block_height", "block_hash", "block_time"]) if (typeof value[key] !== (key === "block_hash" ? "string" : "number")) found.push(`${at}.${key}: missing on a confirmed transaction`)
  }
  return found
}

/** What is wrong with one request by the reference; `base` is the server's own path (e.g. `/esplora`). */
export const requestProblems = (request: Recorded, base = ""): Array<string> => {
  const path = request.path.startsWith(base) ? request.path.slice(base.length) : request.path
  const found = patterns.some(({ pattern }) => pattern.test(path)) ? [] : [`${request.method} ${path}: not a documented endpoint`]
  if (request.method !== "GET") found.push(`${request.method} ${path}: not a GET`)
  if (request.body !== "") found.push(`${request.method} ${path}: a body`)
  return found
}

/** What is wrong with the answer to one request. */
export const responseProblems = (request: Recorded, base = ""): Array<string> => {
  const path = request.path.startsWith(base) ? request.path.slice(base.length) : request.path
  if (request.answer === undefined || request.status !== 200) return []
  const name = `GET ${path} answer`
  if (path === "/blocks/tip/height") return /^\d+$/u.test(request.answer.trim()) ? [] : [`${name}: not a block height`]
  const list: Json = JSON.parse(request.answer)
  if (!Array.isArray(list)) return [`${name}: not a list of transactions`]
  const found = list.flatMap((tx, index) => objectProblems(description.transaction, tx, "transaction", `${name}[${index}]`))
  const confirmed = list.filter((tx) => tx?.status?.confirmed === true)
  const chain = path.includes("/txs/chain")
  if (chain ? confirmed.length !== list.length : list.length - confirmed.length > 50) found.push(`${name}: ${chain ? "a mempool transaction on the chain list" : "more than 50 mempool transactions"}`)
  if (confirmed.length > 25) found.push(`${name}: more than 25 confirmed transactions`)
  const heights = confirmed.map((tx) => tx.status.block_height as number)
  if (heights.some((height, index) => index > 0 && height > heights[index - 1]!)) found.push(`${name}: not newest first`)
  return found
}
