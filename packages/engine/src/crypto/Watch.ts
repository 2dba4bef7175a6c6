import { Cause, Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Crypto } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import type { JobOutcome } from "../pipeline/Area.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import { type ChainPayment, ChainWatcher } from "../ports/CryptoRails.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as Access from "./Access.ts"
import { big } from "./core/Rows.ts"
import * as WalletStore from "./WalletStore.ts"

/**
 * The chain watcher's run (the periodic `crypto.watch` job, and `scanCompany` for a test or an
 * embedder): for each active wallet, the payments the chain-watcher port sees at the addresses of
 * recent quotes (and the wallet's own address when it has one) become receipts, `pending` until
 * they have the confirmations the settings ask (BTC 1-6, XMR 10-30, tokens 12), then `confirmed`.
 * A receipt is matched to its quote by address; the quote records what arrived (paid, underpaid,
 * overpaid) and the receipt whether it came late (after the quote expired: priced again when it is
 * assigned). Open quotes past their time with nothing received expire. Nothing posts here:
 * posting is a person's `assign` (docs/decisions/1503). A chain that fails is asked again next run.
 */

export const jobKind = "crypto.watch"
/** Quotes watched this long after they were made. */
export const watchDays = 30

const needed = (rail: string, settings: Access.Settings): number =>
  rail === "btc" ? settings.btcConfirmations : rail === "xmr" ? settings.xmrConfirmations : Crypto.Limits.tokenConfirmations

const emit = (company: string, now: string, type: Outbox.EventType, payload: Record<string, unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* Outbox.insert(sql, [{ company_id: company, event_type: type, payload: JSON.stringify(payload), occurred_at: now }]).pipe(Effect.orDie)
  })

const quoteFor = (quotes: ReadonlyArray<Record<string, unknown>>, address: string) =>
  quotes.filter((quote) => quote.address === address).sort((a, b) => Row.iso(b.created_at).localeCompare(Row.iso(a.created_at)))[0]

/** A new payment: a receipt, its quote's tally, and the wallet's last paid address. */
const record = Effect.fn("Watch.record")(function*(company: string, wallet: Record<string, unknown>, payment: ChainPayment, quote: Record<string, unknown> | undefined, confirmations: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const units = big(payment.units)
  let kind: string | null = null
  if (quote !== undefined) {
    const received = big(quote.received_units) + units
    const wanted = big(quote.amount_units)
    const late = Row.iso(quote.expires_at) < now || quote.status === "expired" || quote.status === "cancelled"
    kind = late ? "late" : received === wanted ? "exact" : received < wanted ? "under" : "over"
    const status = received === wanted ? "paid" : received < wanted ? "underpaid" : "overpaid"
    yield* sql`UPDATE crypto_quotes SET received_units = ${received.toString()}, status = ${quote.status === "cancelled" ? "cancelled" : status}
      WHERE company_id = ${company} AND id = ${Row.int(quote.id)}`.pipe(Effect.orDie)
    if (quote.address_index !== null) {
      yield* sql`UPDATE crypto_wallets SET last_paid_index = greatest(last_paid_index, ${Row.int(quote.address_index)})
        WHERE company_id = ${company} AND id = ${Row.int(wallet.id)}`.pipe(Effect.orDie)
    }
  }
  const done = payment.confirmations >= confirmations
  const rows = yield* sql<{ id: unknown }>`INSERT INTO crypto_receipts ${sql.insert({
    company_id: company, wallet_id: Row.int(wallet.id), quote_id: quote === undefined ? null : Row.int(quote.id), asset: String(wallet.asset),
    txid: payment.txid, output_index: payment.outputIndex, address: payment.address, units: units.toString(), confirmations: payment.confirmations,
    status: done ? "confirmed" : "pending", payment: kind, document_id: quote === undefined ? null : Row.int(quote.document_id),
    seen_at: now, confirmed_at: done ? now : null
  })} RETURNING id`.pipe(Effect.orDie)
  const id = Row.int(rows[0]!.id)
  yield* emit(company, now, "crypto.receipt_seen", { receipt_id: id, wallet_id: Row.int(wallet.id), txid: payment.txid, units: units.toString(), payment: kind })
  if (done) yield* emit(company, now, "crypto.receipt_confirmed", { receipt_id: id, confirmations: payment.confirmations })
})

const scanWallet = Effect.fn("Watch.scanWallet")(function*(company: string, wallet: Record<string, unknown>, settings: Access.Settings, now: string) {
  const sql = yield* SqlClient.SqlClient
  const chain = yield* ChainWatcher
  const rail = String(wallet.rail)
  if (!chain.rails.includes(rail as never)) return
  const since = new Date(Date.parse(now) - watchDays * 86_400_000).toISOString()
  const quotes = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_quotes WHERE company_id = ${company} AND wallet_id = ${Row.int(wallet.id)}
    AND created_at >= ${since} ORDER BY id`.pipe(Effect.orDie)
  const addresses = Array.from(new Set([...quotes.map((quote) => String(quote.address)), ...(wallet.key_kind === "address" ? [String(wallet.address)] : [])]))
  if (addresses.length === 0) return
  const material = rail === "xmr" ? yield* WalletStore.material(company, wallet).pipe(Effect.orDie) : null
  // A quote's address index i is the Monero subaddress (0, i + 1) (keys/Keys.addressAt).
  const subaddressIndex = rail === "xmr"
    ? Object.fromEntries(quotes.filter((quote) => quote.address_index !== null).map((quote) => [String(quote.address), Row.int(quote.address_index) + 1]))
    : undefined
  const payments = yield* chain.payments({
    rail: rail as never, addresses, viewKey: material?.view_key ?? null, primaryAddress: material?.address ?? null, subaddressIndex,
    restoreHeight: Row.intOrNull(wallet.restore_height)
  })
    .pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<ChainPayment>)))
  const confirmations = needed(rail, settings)
  for (const payment of payments) {
    const existing = yield* sql<Record<string, unknown>>`SELECT id, status FROM crypto_receipts WHERE company_id = ${company}
      AND wallet_id = ${Row.int(wallet.id)} AND txid = ${payment.txid} AND output_index = ${payment.outputIndex} FOR UPDATE`.pipe(Effect.orDie)
    if (existing[0] === undefined) {
      yield* record(company, wallet, payment, quoteFor(quotes, payment.address), confirmations, now)
      continue
    }
    const reached = existing[0].status === "pending" && payment.confirmations >= confirmations
    yield* sql`UPDATE crypto_receipts SET confirmations = ${payment.confirmations}
      ${reached ? sql`, status = 'confirmed', confirmed_at = ${now}` : sql``}
      WHERE company_id = ${company} AND id = ${Row.int(existing[0].id)}`.pipe(Effect.orDie)
    if (reached) yield* emit(company, now, "crypto.receipt_confirmed", { receipt_id: Row.int(existing[0].id), confirmations: payment.confirmations })
  }
})

/** One company's wallets, in one transaction. */
export const scanCompany = Effect.fn("Watch.scanCompany")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const now = new Date(yield* Clock.currentTimeMillis).toISOString()
  yield* sql.withTransaction(Effect.gen(function*() {
    const settings = yield* Access.load(company)
    if (!settings.enabled) return
    const wallets = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_wallets WHERE company_id = ${company} AND NOT archived ORDER BY id`.pipe(Effect.orDie)
    for (const wallet of wallets) yield* scanWallet(company, wallet, settings, now)
    yield* sql`UPDATE crypto_quotes SET status = 'expired' WHERE company_id = ${company} AND status = 'open' AND expires_at < ${now}
      AND received_units = 0`.pipe(Effect.orDie)
  })).pipe(Effect.orDie)
})

/** Every company with crypto on. */
export const scanAll = Effect.fn("Watch.scanAll")(function*() {
  const sql = yield* SqlClient.SqlClient
  const companies = yield* sql<{ company_id: string }>`SELECT company_id FROM crypto_settings WHERE enabled ORDER BY company_id`.pipe(Effect.orDie)
  for (const { company_id } of companies) yield* scanCompany(company_id)
})

/** The job: the ports are taken from the workers' context when they are there (JobServices names only the database and mail). */
export const run = (): Effect.Effect<JobOutcome, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const chain = yield* Effect.serviceOption(ChainWatcher)
    const sealer = yield* Effect.serviceOption(TokenSealer)
    if (chain._tag === "None" || sealer._tag === "None" || chain.value.rails.length === 0) return { _tag: "Done" } as const
    return yield* scanAll().pipe(
      Effect.provideService(ChainWatcher, chain.value),
      Effect.provideService(TokenSealer, sealer.value),
      Effect.as({ _tag: "Done" } as const),
      Effect.catchCause((cause) => Effect.succeed({ _tag: "Retry", error: Cause.pretty(cause).slice(0, 500) } as const))
    )
  })
