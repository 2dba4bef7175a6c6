import { Effect, Layer } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment } from "@ledger/engine/ports"
import { addressesMax } from "./Http.ts"
import { rpc, type RpcError } from "./JsonRpc.ts"

// USDC on Solana: token balances over Solana's JSON-RPC

/** Circle's USDC mint on Solana. */
export const solanaUsdcMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
/** At most this many token accounts an owner, and transactions a token account, per watch. */
export const solanaAccountsMax = 10
export const solanaSignaturesMax = 100

interface TokenBalance {
  readonly accountIndex: number
  readonly mint: string
  readonly owner?: string
  readonly uiTokenAmount: { readonly amount: string }
}

/**
 * USDC on Solana: SPL tokens arrive at the owner's token accounts, not at the owner's address, and
 * leave no EVM-style logs. Per watched owner: `getTokenAccountsByOwner` (the USDC mint), then per
 * token account `getSignaturesForAddress` (the latest `solanaSignaturesMax`) and `getTransaction`
 * (jsonParsed): what the owner's USDC balance gained in the transaction is the payment.
 * Confirmations are slots since the transaction's (`getSlot`), failed transactions skipped.
 */
export const solanaUsdc = (options: { readonly url: string; readonly mint?: string | undefined }): Layer.Layer<ChainWatcher> => {
  const mint = options.mint ?? solanaUsdcMint
  const call = (method: string, params: unknown) => rpc(options.url, method, params)
  const failure = (error: string | RpcError) =>
    new ChainFailure({ code: "unavailable", message: `usdc_solana JSON-RPC: ${typeof error === "string" ? error : `${error.code} ${error.message}`}` })
  const sum = (balances: ReadonlyArray<TokenBalance>, owner: string) =>
    balances.filter((balance) => balance.mint === mint && balance.owner === owner).reduce((total, balance) => total + BigInt(balance.uiTokenAmount.amount), 0n)
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["usdc_solana"],
    payments: (watch) =>
      Effect.gen(function*() {
        if (watch.rail !== "usdc_solana") return yield* Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        const tip = Number(yield* call("getSlot", [{ commitment: "confirmed" }]))
        if (!Number.isSafeInteger(tip)) return yield* Effect.fail("no slot")
        const found: Array<ChainPayment> = []
        const seen = new Set<string>()
        for (const owner of watch.addresses.slice(0, addressesMax)) {
          const accounts = (yield* call("getTokenAccountsByOwner", [owner, { mint }, { encoding: "jsonParsed", commitment: "confirmed" }])) as
            { value?: ReadonlyArray<{ pubkey: string }> } | null
          for (const account of (accounts?.value ?? []).slice(0, solanaAccountsMax)) {
            const signatures = (yield* call("getSignaturesForAddress", [account.pubkey, { limit: solanaSignaturesMax, commitment: "confirmed" }])) as
              ReadonlyArray<{ signature: string; slot: number; err: unknown }> | null
            for (const entry of signatures ?? []) {
              if (entry.err !== null && entry.err !== undefined) continue
              if (seen.has(`${owner}:${entry.signature}`)) continue
              seen.add(`${owner}:${entry.signature}`)
              const tx = (yield* call("getTransaction", [entry.signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" }])) as
                { slot?: number; meta?: { err?: unknown; preTokenBalances?: ReadonlyArray<TokenBalance>; postTokenBalances?: ReadonlyArray<TokenBalance> } | null } | null
              const meta = tx?.meta
              if (meta === undefined || meta === null || (meta.err !== null && meta.err !== undefined)) continue
              const gained = sum(meta.postTokenBalances ?? [], owner) - sum(meta.preTokenBalances ?? [], owner)
              if (gained <= 0n) continue
              const index = (meta.postTokenBalances ?? []).find((balance) => balance.mint === mint && balance.owner === owner)?.accountIndex ?? 0
              const slot = tx?.slot ?? entry.slot
              found.push({ txid: entry.signature, outputIndex: index, address: owner, units: gained.toString(), confirmations: Math.max(0, tip - slot + 1) })
            }
          }
        }
        return found
      }).pipe(Effect.mapError((error) => error instanceof ChainFailure ? error : failure(error)))
  }))
}
