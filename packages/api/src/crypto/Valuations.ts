import { Schema } from "effect"
import { DateString, DryRun, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Governed from "../ledger/Governed.ts"
import * as Operation from "../Operation.ts"
import { area, Asset, errors, IdPath, Moment, Price, Quantity, SoftLockOverrideReason } from "./Shared.ts"

export const ValuationStatus = Schema.Literals(["proposed", "confirmed", "rejected"])

export const Valuation = Schema.Struct({
  id: Id,
  asset: Asset,
  at: Timestamp,
  price: Price,
  reason: Schema.String,
  status: ValuationStatus,
  manual: Schema.Boolean,
  proposed_by: Schema.String,
  decided_by: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "CryptoValuation" })
export type Valuation = typeof Valuation.Type

export const listCryptoValuations = Operation.make({
  id: "listCryptoValuations",
  method: "GET",
  path: "/v1/crypto/valuations",
  area,
  summary: "Prices of the assets at moments: manual ones (confirmed, proposed or rejected) and those the price port gave.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    asset: Schema.optionalKey(Asset),
    status: Schema.optionalKey(ValuationStatus),
    manual: Schema.optionalKey(Schema.Boolean),
    ...PageQuery
  }),
  errors: [...errors],
  success: Page(Valuation)
})

export const createCryptoValuation = Operation.make({
  id: "createCryptoValuation",
  method: "POST",
  path: "/v1/crypto/valuations",
  area,
  summary: "Give a price of an asset at a moment: a person's is confirmed at once, an agent's is proposed for the owner or CPA.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({ asset: Asset, at: Moment, price: Price, reason: Reason }),
  success: Valuation,
  errors: [...errors]
})

export const decideCryptoValuation = Operation.make({
  id: "decideCryptoValuation",
  method: "POST",
  path: "/v1/crypto/valuations/{id}/decide",
  area,
  summary: "Confirm or reject a proposed valuation.",
  scope: "approve",
  mode: "K",
  status: 200,
  peopleOnly: true,
  mcpTool: false,
  pathParams: IdPath,
  body: Schema.Struct({ confirm: Schema.Boolean }),
  success: Valuation,
  errors: [...errors, "crypto_valuation_state", "self_approval_refused"]
})

export const RemeasurementLine = Schema.Struct({
  asset: Asset,
  quantity: Quantity,
  price: Price,
  price_source: Schema.Literals(["valuation", "price_port"]),
  carrying_cents: Schema.Int,
  fair_value_cents: Schema.Int,
  adjustment_cents: Schema.Int
}).annotate({ identifier: "CryptoRemeasurementLine" })

export const Remeasurement = Schema.Struct({
  id: Schema.NullOr(Id),
  period_end: DateString,
  adjustment_cents: Schema.Int,
  entry_id: Schema.NullOr(Id),
  reversal_entry_id: Schema.NullOr(Id),
  reversal_date: DateString,
  lines: Schema.Array(RemeasurementLine),
  created_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "CryptoRemeasurement" })
export type Remeasurement = typeof Remeasurement.Type

export const listCryptoRemeasurements = Operation.make({
  id: "listCryptoRemeasurements",
  method: "GET",
  path: "/v1/crypto/remeasurements",
  area,
  summary: "Month-end fair-value remeasurements and their reversals.",
  scope: "read",
  mode: "R",
  query: Schema.Struct(PageQuery),
  errors: [...errors],
  success: Page(Remeasurement)
})

export const createCryptoRemeasurement = Operation.make({
  id: "createCryptoRemeasurement",
  method: "POST",
  path: "/v1/crypto/remeasurements",
  area,
  summary: "Remeasure holdings at fair value at a period end (ASU 2023-08): an entry on that day, reversed the next day.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  governed: true,
  body: Schema.Struct({ period_end: DateString, dry_run: DryRun, soft_lock_override_reason: SoftLockOverrideReason }),
  success: Remeasurement,
  otherResponses: { 200: Governed.preview(Remeasurement) },
  errors: [...errors, "crypto_remeasure_off", "crypto_remeasurement_exists", "crypto_price_unavailable", "period_hard_locked",
    "soft_lock_reason_required"]
})

export const operations = [
  listCryptoValuations,
  createCryptoValuation,
  decideCryptoValuation,
  listCryptoRemeasurements,
  createCryptoRemeasurement
] as const

