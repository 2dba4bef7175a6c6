import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { Csv } from "../reports/index.ts"
import * as Access from "./Access.ts"
import * as Disposals from "./Disposals.ts"
import * as LotRules from "./core/LotRules.ts"
import * as LotStore from "./LotStore.ts"
import * as Posting from "./Posting.ts"
import * as Rows from "./core/Rows.ts"
import { type Asset, dayOf, fromUnits, momentOf, toUnits } from "./core/UnitRules.ts"
import * as WalletStore from "./WalletStore.ts"

/** Acquisitions, the lots and disposals lists, and the gains report. */

const acquire = Handler.make(Crypto.Lots.recordCryptoAcquisition, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const { company } = yield* Access.requireEnabled
    const request = yield* RequestContext
    const wallet = yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, path.id, true))
    const asset = wallet.asset as Asset
    const units = toUnits(body.quantity, asset)
    const acquiredAt = momentOf(body.acquired_at)
    const issues = [
      ...(units === null || units === 0n ? [{ path: ["body", "quantity"], message: `A positive quantity of ${asset} with at most its places.` }] : []),
      ...(acquiredAt === null ? [{ path: ["body", "acquired_at"], message: "Not a valid moment." }] : [])
    ]
    if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("The acquisition is not valid.", issues))
    const lot = { walletId: path.id, asset, source: "acquisition" as const, acquiredAt: acquiredAt!, units: units!, costCents: body.cost_cents, now: request.now }
    return yield* Posting.post({
      kind: "crypto_acquisition",
      summary: `Crypto acquired: ${body.quantity} ${asset}`,
      date: dayOf(acquiredAt!),
      memo: body.memo ?? `${body.quantity} ${asset} acquired`,
      lines: [
        { account: String(wallet.ledger_account), debit_cents: body.cost_cents },
        { account: body.offset_account, credit_cents: body.cost_cents }
      ],
      request: body,
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      document: Rows.lot({
        id: 1, wallet_id: path.id, asset, source: "acquisition", acquired_at: acquiredAt, units: units!.toString(), remaining_units: units!.toString(),
        cost_cents: body.cost_cents, remaining_cost_cents: body.cost_cents, entry_id: null, created_at: request.now
      }),
      // The lot takes the id its entry names as `source.id`.
      reserveSourceId: true,
      onPosted: (entryId, id) => Effect.map(LotStore.insertLot(company, { ...lot, entryId, id }), Rows.lot)
    })
  }))

const gainRows = Effect.fn("Lots.gainRows")(function*(company: string, from: string, to: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT d.id AS disposal_id, d.kind, d.asset, d.disposed_at, r.lot_id, r.units, r.cost_cents,
      r.proceeds_cents, l.acquired_at
    FROM crypto_disposals d JOIN crypto_reliefs r ON r.company_id = d.company_id AND r.disposal_id = d.id
    JOIN crypto_lots l ON l.company_id = r.company_id AND l.id = r.lot_id
    WHERE d.company_id = ${company} AND d.kind <> 'transfer'
      AND d.disposed_at >= ${`${from}T00:00:00.000Z`} AND d.disposed_at <= ${`${to}T23:59:59.999Z`}
    ORDER BY d.disposed_at, d.id, l.acquired_at, l.id LIMIT ${Crypto.Limits.gainsRowsMax}`.pipe(Effect.orDie)
})

const gains = Handler.make(Crypto.Lots.getCryptoGains, ({ query }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    if (query.from > query.to) return yield* Effect.fail(ApiError.validationFailed("from is after to.", [{ path: ["query", "from"], message: "After to." }]))
    const rows = (yield* gainRows(company, query.from, query.to)).map((row): typeof Crypto.Lots.GainRow.Type => {
      const cost = Row.int(row.cost_cents)
      const proceeds = Row.int(row.proceeds_cents)
      const disposedAt = Row.iso(row.disposed_at)
      const acquiredAt = Row.iso(row.acquired_at)
      return {
        disposal_id: Row.int(row.disposal_id), lot_id: Row.int(row.lot_id), asset: row.asset as Asset, kind: row.kind as Crypto.Lots.DisposalKind,
        acquired_at: acquiredAt, disposed_at: disposedAt, quantity: fromUnits(Rows.big(row.units), row.asset as Asset),
        proceeds_cents: proceeds, cost_cents: cost, gain_cents: proceeds - cost, term: LotRules.termOf(acquiredAt, disposedAt)
      }
    })
    const sum = (pick: (row: (typeof rows)[number]) => number, term?: "short" | "long") =>
      rows.filter((row) => term === undefined || row.term === term).reduce((total, row) => total + pick(row), 0)
    const report = {
      from: query.from, to: query.to,
      short_term_gain_cents: sum((row) => row.gain_cents, "short"), long_term_gain_cents: sum((row) => row.gain_cents, "long"),
      proceeds_cents: sum((row) => row.proceeds_cents), cost_cents: sum((row) => row.cost_cents), rows
    }
    if (query.format !== "csv") return { body: report }
    const csv = Csv.render(
      ["disposal_id", "lot_id", "asset", "kind", "acquired", "disposed", "quantity", "proceeds", "cost", "gain", "term"],
      rows.map((row) => [row.disposal_id, row.lot_id, row.asset, row.kind, row.acquired_at.slice(0, 10), row.disposed_at.slice(0, 10), row.quantity,
        Csv.cents(row.proceeds_cents), Csv.cents(row.cost_cents), Csv.cents(row.gain_cents), row.term])
    )
    return { body: Csv.file(`crypto-gains-${query.from}-to-${query.to}.csv`, csv) }
  }))

export const handlers = [
  acquire,
  Disposals.record,
  gains,
  Handler.make(Crypto.Lots.listCryptoLots, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM crypto_lots WHERE company_id = ${company}
        ${query.wallet_id === undefined ? sql`` : sql`AND wallet_id = ${query.wallet_id}`}
        ${query.all === true ? sql`` : sql`AND remaining_units > 0`} ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), Rows.lot) }
    })),
  Handler.make(Crypto.Lots.listCryptoDisposals, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_disposals WHERE company_id = ${company}
        ${query.wallet_id === undefined ? sql`` : sql`AND wallet_id = ${query.wallet_id}`}
        ${query.from === undefined ? sql`` : sql`AND disposed_at >= ${`${query.from}T00:00:00.000Z`}`}
        ${query.to === undefined ? sql`` : sql`AND disposed_at <= ${`${query.to}T23:59:59.999Z`}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const reliefs = yield* LotStore.reliefsOf(company, rows.map((row) => Row.int(row.id)))
      const show = (row: Record<string, unknown>) =>
        Disposals.disposalOf(row, reliefs.filter((relief) => Row.int(relief.disposal_id) === Row.int(row.id)), Row.iso(row.disposed_at))
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), show) }
    }))
]
