import { Schema } from "effect"
import { Cents, DateString, DryRun, Id, Memo, NonNegativeCents, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Governed from "../ledger/Governed.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import * as Limits from "./Limits.ts"
import { AccountCode, area, Asset, errors, IdPath, Moment, Price, Quantity, SoftLockOverrideReason, Units } from "./Shared.ts"

export const LotSource = Schema.Literals(["acquisition", "receipt", "transfer"])

export const Lot = Schema.Struct({
  id: Id,
  wallet_id: Id,
  asset: Asset,
  source: LotSource,
  acquired_at: Timestamp,
  units: Units,
  remaining_units: Units,
  quantity: Quantity,
  remaining_quantity: Quantity,
  cost_cents: Schema.Int,
  remaining_cost_cents: Schema.Int,
  entry_id: Schema.NullOr(Id),
  created_at: Timestamp
}).annotate({ identifier: "CryptoLot" })
export type Lot = typeof Lot.Type

export const DisposalKind = Schema.Literals(["sell", "spend", "transfer", "fee", "other"])
export type DisposalKind = typeof DisposalKind.Type

export const Relief = Schema.Struct({
  lot_id: Id,
  acquired_at: Timestamp,
  units: Units,
  quantity: Quantity,
  cost_cents: Schema.Int,
  proceeds_cents: Schema.Int,
  gain_cents: Schema.Int,
  term: Schema.Literals(["short", "long"])
}).annotate({ identifier: "CryptoLotRelief" })

export const Disposal = Schema.Struct({
  id: Schema.NullOr(Id),
  wallet_id: Id,
  asset: Asset,
  kind: DisposalKind,
  disposed_at: Timestamp,
  units: Units,
  quantity: Quantity,
  proceeds_cents: Schema.Int,
  cost_cents: Schema.Int,
  short_term_gain_cents: Schema.Int,
  long_term_gain_cents: Schema.Int,
  gain_cents: Schema.Int,
  to_wallet_id: Schema.NullOr(Id),
  counter_account: Schema.NullOr(Schema.String),
  txid: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  entry_id: Schema.NullOr(Id),
  lots: Schema.Array(Relief),
  created_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "CryptoDisposal" })
export type Disposal = typeof Disposal.Type

// For the owner or CPA signed in (spec 4.11): a session, never a key (Operation.signedIn).
const adminWrite = { scope: "admin", mode: "K", peopleOnly: true, signedIn: true, mcpTool: false, governed: true } as const

export const recordCryptoAcquisition = Operation.make({
  id: "recordCryptoAcquisition",
  method: "POST",
  path: "/v1/crypto/wallets/{id}/acquisitions",
  area,
  summary: "Record crypto bought or received outside a quote: a lot at its cost, posted against the offset account.",
  ...adminWrite,
  pathParams: IdPath,
  body: Schema.Struct({
    quantity: Quantity,
    cost_cents: NonNegativeCents,
    acquired_at: Moment,
    offset_account: AccountCode,
    memo: Schema.optionalKey(Memo),
    dry_run: DryRun,
    soft_lock_override_reason: SoftLockOverrideReason
  }),
  success: Lot,
  otherResponses: { 200: Governed.preview(Lot) },
  errors: [...errors, "crypto_wallet_archived", "unknown_account", "inactive_account", "period_hard_locked", "soft_lock_reason_required"]
})

export const Pick = Schema.Struct({ lot_id: Id, quantity: Quantity }).annotate({ identifier: "CryptoLotPick" })

export const recordCryptoDisposal = Operation.make({
  id: "recordCryptoDisposal",
  method: "POST",
  path: "/v1/crypto/wallets/{id}/disposals",
  area,
  summary: "Record crypto sold, spent, moved to another own wallet, paid as a fee or otherwise disposed of; the realized gain or loss, short and long term.",
  description: "Lots are relieved first in, first out, or as `picks` name them (specific identification). A transfer carries the lots' " +
    "cost and dates to `to_wallet_id` and realizes nothing.",
  ...adminWrite,
  pathParams: IdPath,
  body: Schema.Struct({
    kind: DisposalKind,
    quantity: Quantity,
    disposed_at: Moment,
    proceeds_cents: Schema.optionalKey(NonNegativeCents),
    price: Schema.optionalKey(Price),
    counter_account: Schema.optionalKey(AccountCode),
    to_wallet_id: Schema.optionalKey(Id),
    picks: Schema.optionalKey(Schema.Array(Pick).check(Schema.isMaxLength(Limits.picksMax))),
    txid: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
    memo: Schema.optionalKey(Memo),
    dry_run: DryRun,
    soft_lock_override_reason: SoftLockOverrideReason
  }),
  success: Disposal,
  otherResponses: { 200: Governed.preview(Disposal) },
  errors: [...errors, "crypto_wallet_archived", "crypto_insufficient_lots", "crypto_price_unavailable", "unknown_account", "inactive_account",
    "period_hard_locked", "soft_lock_reason_required"]
})

export const listCryptoLots = Operation.make({
  id: "listCryptoLots",
  method: "GET",
  path: "/v1/crypto/lots",
  area,
  summary: "Lots: open ones, or all with `all`.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ wallet_id: Schema.optionalKey(Id), all: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  errors: [...errors],
  success: Page(Lot)
})

export const listCryptoDisposals = Operation.make({
  id: "listCryptoDisposals",
  method: "GET",
  path: "/v1/crypto/disposals",
  area,
  summary: "Disposals with the lots each relieved.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ wallet_id: Schema.optionalKey(Id), from: Schema.optionalKey(DateString), to: Schema.optionalKey(DateString), ...PageQuery }),
  errors: [...errors],
  success: Page(Disposal)
})

export const GainRow = Schema.Struct({
  disposal_id: Id,
  lot_id: Id,
  asset: Asset,
  kind: DisposalKind,
  acquired_at: Timestamp,
  disposed_at: Timestamp,
  quantity: Quantity,
  proceeds_cents: Schema.Int,
  cost_cents: Schema.Int,
  gain_cents: Schema.Int,
  term: Schema.Literals(["short", "long"])
}).annotate({ identifier: "CryptoGainRow" })

export const Gains = Schema.Struct({
  from: DateString,
  to: DateString,
  short_term_gain_cents: Cents,
  long_term_gain_cents: Cents,
  proceeds_cents: Schema.Int,
  cost_cents: Schema.Int,
  rows: Schema.Array(GainRow)
}).annotate({ identifier: "CryptoGains" })

export const CsvReport = File.CsvEnvelope

export const getCryptoGains = Operation.make({
  id: "getCryptoGains",
  method: "GET",
  path: "/v1/crypto/gains",
  area,
  summary: "Realized gains and losses between two dates, by lot, short and long term; JSON or CSV.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ from: DateString, to: DateString, format: Schema.optionalKey(Schema.Literals(["json", "csv"])) }),
  errors: [...errors],
  success: Schema.Union([Gains, CsvReport]),
  files: File.csvReport
})


export const operations = [
  recordCryptoAcquisition,
  recordCryptoDisposal,
  listCryptoLots,
  listCryptoDisposals,
  getCryptoGains
] as const
