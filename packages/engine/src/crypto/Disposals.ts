import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Access from "./Access.ts"
import * as LotRules from "./core/LotRules.ts"
import * as LotStore from "./LotStore.ts"
import * as Posting from "./Posting.ts"
import { big } from "./core/Rows.ts"
import * as Prices from "./core/Prices.ts"
import { type Asset, dayOf, fromUnits, momentOf, toUnits, valueCents } from "./core/UnitRules.ts"
import * as WalletStore from "./WalletStore.ts"

/** POST /v1/crypto/wallets/{id}/disposals: lots relieved, gains realized (short and long term), posted. */

type Body = typeof Crypto.Lots.recordCryptoDisposal.body.Type
type Relieved = Extract<LotRules.Relief, { _tag: "Relieved" }>

export const disposalOf = (row: Record<string, unknown>, reliefs: ReadonlyArray<Record<string, unknown>>, disposedAt: string): Crypto.Lots.Disposal => {
  const asset = row.asset as Asset
  const short = Row.int(row.short_term_gain_cents)
  const long = Row.int(row.long_term_gain_cents)
  return {
    id: Row.intOrNull(row.id),
    wallet_id: Row.int(row.wallet_id),
    asset,
    kind: row.kind as Crypto.Lots.DisposalKind,
    disposed_at: Row.iso(row.disposed_at),
    units: big(row.units).toString(),
    quantity: fromUnits(big(row.units), asset),
    proceeds_cents: Row.int(row.proceeds_cents),
    cost_cents: Row.int(row.cost_cents),
    short_term_gain_cents: short,
    long_term_gain_cents: long,
    gain_cents: short + long,
    to_wallet_id: Row.intOrNull(row.to_wallet_id),
    counter_account: (row.counter_account as string | null) ?? null,
    txid: (row.txid as string | null) ?? null,
    memo: (row.memo as string | null) ?? null,
    entry_id: Row.intOrNull(row.entry_id),
    lots: reliefs.map((relief) => {
      const cost = Row.int(relief.cost_cents)
      const proceeds = Row.int(relief.proceeds_cents)
      return {
        lot_id: Row.int(relief.lot_id),
        acquired_at: Row.iso(relief.acquired_at),
        units: big(relief.units).toString(),
        quantity: fromUnits(big(relief.units), asset),
        cost_cents: cost,
        proceeds_cents: proceeds,
        gain_cents: proceeds - cost,
        term: LotRules.termOf(Row.iso(relief.acquired_at), disposedAt)
      }
    }),
    created_at: row.created_at === undefined || row.created_at === null ? null : Row.iso(row.created_at)
  }
}

const invalid = (message: string, path: ReadonlyArray<string>) => Effect.fail(ApiError.validationFailed(message, [{ path: ["body", ...path], message }]))

/** What the disposal realizes: the proceeds (a transfer realizes none: its proceeds are its cost). */
const proceedsOf = Effect.fn("Disposals.proceedsOf")(function*(body: Body, asset: Asset, units: bigint, at: string) {
  if (body.proceeds_cents !== undefined) return body.proceeds_cents
  if (body.price !== undefined) return valueCents(units, body.price, asset)
  return valueCents(units, (yield* Prices.priceAt(asset, at, body.dry_run !== true)).price, asset)
})

const linesOf = (body: Body, relief: Relieved, proceeds: number, accounts: { wallet: string; counter: string | null; destination: string | null; realized: string }) => {
  if (body.kind === "transfer") {
    return [
      { account: accounts.destination!, debit_cents: relief.costCents, memo: "Transfer between own wallets" },
      { account: accounts.wallet, credit_cents: relief.costCents }
    ]
  }
  const gain = proceeds - relief.costCents
  return [
    { account: accounts.counter!, debit_cents: proceeds },
    { account: accounts.wallet, credit_cents: relief.costCents },
    gain >= 0 ? { account: accounts.realized, credit_cents: gain, memo: "Realized gain" } : { account: accounts.realized, debit_cents: -gain, memo: "Realized loss" }
  ]
}

const destinationOf = Effect.fn("Disposals.destinationOf")(function*(company: string, body: Body, source: Record<string, unknown>) {
  if (body.kind !== "transfer") return null
  if (body.to_wallet_id === undefined) return yield* invalid("A transfer names the wallet it goes to (to_wallet_id).", ["to_wallet_id"])
  if (body.to_wallet_id === Row.int(source.id)) return yield* invalid("A transfer goes to another wallet.", ["to_wallet_id"])
  const destination = yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, body.to_wallet_id, true))
  if (destination.asset !== source.asset) return yield* invalid("A transfer goes to a wallet of the same asset.", ["to_wallet_id"])
  return destination
})

/** The lots relieved and the proceeds realized, or the refusal: more than was held, or picks that do not fit. */
const reliefOf = Effect.fn("Disposals.reliefOf")(function*(company: string, walletId: number, body: Body, asset: Asset, units: bigint, disposedAt: string) {
  const picks = body.picks === undefined ? null : body.picks.map((pick) => ({ lotId: pick.lot_id, units: toUnits(pick.quantity, asset) ?? -1n }))
  const lots = yield* LotStore.openLots(company, walletId, disposedAt)
  const provisional = LotRules.relieve({ lots, units, proceedsCents: 0, disposedAt, picks })
  if (provisional._tag === "Short") {
    const available = fromUnits(provisional.availableUnits, asset)
    return yield* Effect.fail(ApiError.fail("crypto_insufficient_lots", `The wallet held only ${available} ${asset} at ${disposedAt}.`, { available }))
  }
  if (provisional._tag === "BadPick") return yield* invalid(`Lot ${provisional.lotId}: ${provisional.message}`, ["picks"])
  const proceeds = body.kind === "transfer" ? provisional.costCents : yield* proceedsOf(body, asset, units, disposedAt)
  return { proceeds, relief: LotRules.relieve({ lots, units, proceedsCents: proceeds, disposedAt, picks }) as Relieved }
})

/** The checked quantity, moment and counter account of a disposal. */
const checked = Effect.fn("Disposals.checked")(function*(body: Body, wallet: Record<string, unknown>, feeAccount: string) {
  const asset = wallet.asset as Asset
  const units = toUnits(body.quantity, asset)
  if (units === null || units === 0n) return yield* invalid(`A positive quantity of ${asset} with at most its places.`, ["quantity"])
  const disposedAt = momentOf(body.disposed_at)
  if (disposedAt === null) return yield* invalid("Not a valid moment.", ["disposed_at"])
  if (wallet.lot_method === "specific" && body.picks === undefined) {
    return yield* invalid("This wallet uses specific identification: name the lots in picks.", ["picks"])
  }
  const counter = body.kind === "transfer" ? null : body.counter_account ?? (body.kind === "fee" ? feeAccount : null)
  if (body.kind !== "transfer" && counter === null) {
    return yield* invalid("Name the account the proceeds or expense go to (counter_account).", ["counter_account"])
  }
  return { asset, units, disposedAt, counter }
})

export const record = Handler.make(Crypto.Lots.recordCryptoDisposal, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const { company, settings } = yield* Access.requireEnabled
    const request = yield* RequestContext
    const wallet = yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, path.id, true))
    const { asset, units, disposedAt, counter } = yield* checked(body, wallet, settings.feeAccount)
    const destination = yield* destinationOf(company, body, wallet)
    const { proceeds, relief } = yield* reliefOf(company, path.id, body, asset, units, disposedAt)
    const transfer = body.kind === "transfer"
    const row = {
      company_id: company, wallet_id: path.id, asset, kind: body.kind, disposed_at: disposedAt, units: units.toString(),
      proceeds_cents: proceeds, cost_cents: relief.costCents,
      short_term_gain_cents: transfer ? 0 : relief.shortGainCents, long_term_gain_cents: transfer ? 0 : relief.longGainCents,
      to_wallet_id: body.to_wallet_id ?? null, counter_account: counter, txid: body.txid ?? null, memo: body.memo ?? null,
      created_by: Actor.reference(request.actor), created_at: request.now
    }
    const reliefRows = relief.parts.map((part) => ({
      lot_id: part.lotId, acquired_at: part.acquiredAt, units: part.units.toString(), cost_cents: part.costCents,
      proceeds_cents: transfer ? part.costCents : part.proceedsCents
    }))
    const walletAccount = String(wallet.ledger_account)
    const destinationAccount = destination === null ? null : String(destination.ledger_account)
    const lines = destinationAccount === walletAccount
      ? []
      : linesOf(body, relief, proceeds, { wallet: walletAccount, counter, destination: destinationAccount, realized: settings.realizedAccount })
    return yield* Posting.post({
      kind: "crypto_disposal",
      summary: `Crypto ${body.kind}: ${body.quantity} ${asset}`,
      date: dayOf(disposedAt),
      memo: body.memo ?? `${transfer ? "Transfer" : "Disposal"} of ${body.quantity} ${asset}`,
      lines,
      request: body,
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      document: disposalOf({ ...row, id: null, entry_id: null, created_at: null }, reliefRows, disposedAt),
      // The disposal takes the id its entry names as `source.id`.
      reserveSourceId: true,
      onPosted: (entryId, id) => write(company, { ...row, ...(id === null ? {} : { id }), entry_id: entryId }, relief, destination, request.now)
    })
  }))

const write = (company: string, row: Record<string, unknown>, relief: Relieved, destination: Record<string, unknown> | null, now: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* LotStore.relieveLots(company, relief.parts)
    const inserted = (yield* sql<Record<string, unknown>>`INSERT INTO crypto_disposals ${sql.insert(row)} RETURNING *`.pipe(Effect.orDie))[0]!
    const id = Row.int(inserted.id)
    const transfer = row.kind === "transfer"
    yield* sql`INSERT INTO crypto_reliefs ${sql.insert(relief.parts.map((part) => ({
      company_id: company, disposal_id: id, lot_id: part.lotId, units: part.units.toString(), cost_cents: part.costCents,
      proceeds_cents: transfer ? part.costCents : part.proceedsCents, term: part.term
    })) as never)}`.pipe(Effect.orDie)
    if (destination !== null) {
      for (const part of relief.parts) {
        yield* LotStore.insertLot(company, { walletId: Row.int(destination.id), asset: String(row.asset), source: "transfer", acquiredAt: part.acquiredAt,
          units: part.units, costCents: part.costCents, entryId: (row.entry_id as number | null) ?? null, now })
      }
    }
    yield* Outbox.emit("crypto.disposal_recorded", { disposal_id: id, wallet_id: row.wallet_id, kind: row.kind, gain_cents: transfer ? 0 : relief.shortGainCents + relief.longGainCents }).pipe(Effect.orDie)
    const reliefs = yield* LotStore.reliefsOf(company, [id])
    return disposalOf(inserted, reliefs, String(row.disposed_at))
  })
