import { createHash } from "node:crypto"
import type { ServerResponse } from "node:http"
import { CryptoPorts } from "@ledger/server"
import { json } from "./Loopback.ts"
import { type ChainState, isBitcoin, type Output } from "./State.ts"

const hash = (text: string) => createHash("sha256").update(text).digest("hex")

/** An output as Esplora shows it: a P2WPKH script (made up from the address) and its value in satoshis. */
const output = (address: string, value: number) => {
  const program = hash(address).slice(0, 40)
  return { scriptpubkey: `0014${program}`, scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${program}`, scriptpubkey_type: "v0_p2wpkh", scriptpubkey_address: address, value }
}

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
    // Every field of Esplora's "Transaction format" a Bitcoin transaction has (API.md); scripts are
    // made up from the address (the fake does not derive real ones), a P2WPKH input spends them.
    return {
      txid, version: 2, locktime: 0, size: 110 + 31 * parts.length, weight: 437 + 124 * parts.length, fee: 141,
      vin: [{
        txid: hash(`prev-${txid}`), vout: 0, is_coinbase: false, scriptsig: "", scriptsig_asm: "", witness: [], sequence: 4294967293,
        prevout: output("bc1qfakepayer", parts.reduce((sum, part) => sum + Number(part.units), 141))
      }],
      vout: parts.map((part) => output(part.address, Number(part.units))),
      status: height === null
        ? { confirmed: false }
        : { confirmed: true, block_height: height, block_hash: hash(`block-${height}`), block_time: 1_700_000_000 + height * 600 }
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
