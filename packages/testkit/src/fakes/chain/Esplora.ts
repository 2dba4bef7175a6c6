import type { ServerResponse } from "node:http"
import { CryptoPorts } from "@ledger/server"
import { json } from "./Loopback.ts"
import { type ChainState, isBitcoin, type Output } from "./State.ts"

/** Esplora: the tip's height, an address's transactions a page at a time, a transaction's status. */
export const esplora = (state: ChainState, response: ServerResponse, path: ReadonlyArray<string>) => {
  const { outputs } = state
  if (path[0] === "blocks" && path[1] === "tip" && path[2] === "height") {
    state.calls++
    return response.writeHead(200, { "content-type": "text/plain" }).end(String(state.tip))
  }
  const txOf = (txid: string) => {
    const parts = outputs.filter((output) => output.txid === txid && isBitcoin(output)).sort((a, b) => a.outputIndex - b.outputIndex)
    const height = parts[0]?.height ?? null
    return {
      txid,
      status: height === null ? { confirmed: false } : { confirmed: true, block_height: height, block_hash: `fake-block-${height}` },
      vout: parts.map((part) => ({ scriptpubkey_address: part.address, value: Number(part.units) }))
    }
  }
  if (path[0] === "tx" && path[2] === "status") return json(response, 200, txOf(path[1]!).status)
  if (path[0] === "address" && path[2] === "txs") {
    const mine = outputs.filter((output) => output.address === path[1] && isBitcoin(output))
    const txids = (list: ReadonlyArray<Output>) => [...new Set(list.map((output) => output.txid))]
    const confirmed = txids(mine.filter((output) => output.height !== null).sort((a, b) => b.height! - a.height! || b.sequence - a.sequence))
    const pending = txids(mine.filter((output) => output.height === null).sort((a, b) => b.sequence - a.sequence))
    if (path[3] === "chain") {
      const after = path[4] === undefined ? 0 : confirmed.indexOf(path[4]) + 1
      if (path[4] !== undefined && after === 0) return json(response, 400, "unknown last seen txid")
      return json(response, 200, confirmed.slice(after, after + CryptoPorts.esploraPageSize).map(txOf))
    }
    return json(response, 200, [...pending.slice(0, 50), ...confirmed.slice(0, CryptoPorts.esploraPageSize)].map(txOf))
  }
  return json(response, 404, "not found")
}
