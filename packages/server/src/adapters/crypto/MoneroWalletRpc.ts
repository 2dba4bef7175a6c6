import { createHash } from "node:crypto"
import { Effect, Layer, Semaphore } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment, type WatchRequest } from "@ledger/engine/ports"
import { rpc, RpcError } from "./JsonRpc.ts"

// Monero: monero-wallet-rpc, view-only

interface MoneroTransfer {
  readonly txid: string
  readonly amount: string
  readonly confirmations?: number
  readonly subaddr_index?: { readonly major: number; readonly minor: number }
  readonly subaddr_indices?: ReadonlyArray<{ readonly major: number; readonly minor: number }>
}

/**
 * Monero through a `monero-wallet-rpc` started with `--wallet-dir`: per watched wallet it opens
 * (or first makes, with `generate_from_keys` and no spend key) a view-only wallet named after the
 * primary address, refreshes it and reads `get_transfers` (incoming and in the pool) for the
 * quotes' subaddress indices. One wallet is open at a time, so calls are serialized.
 */
export const moneroWalletRpc = (options: { readonly url: string; readonly login?: string | undefined }): Layer.Layer<ChainWatcher> => {
  const url = `${options.url.replace(/\/+$/u, "")}/json_rpc`
  const call = (method: string, params: unknown) => rpc(url, method, params, { login: options.login, bigFields: ["amount"] })
  const lock = Semaphore.makeUnsafe(1)
  const failure = (error: string | RpcError) =>
    new ChainFailure({ code: "unavailable", message: `Monero wallet RPC: ${typeof error === "string" ? error : `${error.code} ${error.message}`}` })
  const scan = (watch: WatchRequest) =>
    Effect.gen(function*() {
      if (watch.primaryAddress === undefined || watch.primaryAddress === null || watch.viewKey === undefined || watch.viewKey === null) {
        return yield* Effect.fail("a Monero watch needs the primary address and the view key")
      }
      const filename = `ledger-${createHash("sha256").update(watch.primaryAddress).digest("hex").slice(0, 24)}`
      const opened = yield* call("open_wallet", { filename, password: "" }).pipe(Effect.as(true), Effect.catch((error) => error instanceof RpcError ? Effect.succeed(false) : Effect.fail(error)))
      if (!opened) {
        yield* call("generate_from_keys", {
          filename, address: watch.primaryAddress, viewkey: watch.viewKey, password: "", autosave_current: true,
          ...(watch.restoreHeight === undefined || watch.restoreHeight === null ? {} : { restore_height: watch.restoreHeight })
        })
      }
      yield* call("refresh", {})
      const byIndex = new Map(Object.entries(watch.subaddressIndex ?? {}).filter(([address]) => watch.addresses.includes(address)).map(([address, minor]) => [minor, address]))
      if (byIndex.size === 0) return []
      const result = (yield* call("get_transfers", { in: true, pool: true, account_index: 0, subaddr_indices: [...byIndex.keys()] })) as
        { in?: ReadonlyArray<MoneroTransfer>; pool?: ReadonlyArray<MoneroTransfer> } | null
      const found: Array<ChainPayment> = []
      for (const [list, pooled] of [[result?.in ?? [], false], [result?.pool ?? [], true]] as const) {
        for (const transfer of list) {
          const index = transfer.subaddr_index ?? transfer.subaddr_indices?.[0]
          const address = index !== undefined && index.major === 0 ? byIndex.get(index.minor) : undefined
          if (address === undefined || !/^\d{1,30}$/u.test(String(transfer.amount))) continue
          // The minor index tells apart two subaddresses one transaction pays.
          found.push({ txid: transfer.txid, outputIndex: index!.minor, address, units: String(transfer.amount), confirmations: pooled ? 0 : Number(transfer.confirmations ?? 0) })
        }
      }
      return found
    })
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["xmr"],
    payments: (watch) =>
      watch.rail !== "xmr"
        ? Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        : lock.withPermits(1)(scan(watch)).pipe(Effect.mapError(failure))
  }))
}
