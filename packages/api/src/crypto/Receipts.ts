import { Schema } from "effect"
import { DryRun, Id, Memo, Page, PageQuery, PositiveCents, Reason, Timestamp } from "../Common.ts"
import * as Governed from "../ledger/Governed.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, area, Asset, errors, IdPath, Price, Quantity, SoftLockOverrideReason, Units } from "./Shared.ts"

export const QuoteStatus = Schema.Literals(["open", "paid", "underpaid", "overpaid", "expired", "cancelled"])

export const Quote = Schema.Struct({
  id: Id,
  wallet_id: Id,
  document_id: Id,
  asset: Asset,
  address: Schema.String,
  address_index: Schema.NullOr(Schema.Int),
  amount_cents: Schema.Int,
  price: Price,
  amount_units: Units,
  amount: Quantity,
  received_units: Units,
  expires_at: Timestamp,
  status: QuoteStatus,
  uri: Schema.String.annotate({ description: "A payment URI for a wallet app (BIP 21 for btc, monero: for xmr), else the address." }),
  created_at: Timestamp
}).annotate({ identifier: "CryptoQuote" })
export type Quote = typeof Quote.Type

export const createCryptoQuote = Operation.make({
  id: "createCryptoQuote",
  method: "POST",
  path: "/v1/crypto/quotes",
  area,
  summary: "Quote an open invoice in crypto: a fresh address of the wallet and the amount at the current price, valid quote_minutes.",
  description: "The amount is the invoice's open balance (or amount_cents) at the price port's price, rounded up to the asset's smallest unit.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({ document_id: Id, wallet_id: Id, amount_cents: Schema.optionalKey(PositiveCents) }),
  success: Quote,
  errors: [...errors, "crypto_wallet_archived", "crypto_gap_limit_reached", "crypto_price_unavailable", "crypto_sealer_not_configured", "crypto_quote_state"]
})

export const getCryptoQuote = Operation.make({
  id: "getCryptoQuote",
  method: "GET",
  path: "/v1/crypto/quotes/{id}",
  area,
  summary: "One quote: what to pay, where, until when, and what has arrived.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  errors: [...errors],
  success: Quote
})

export const ReceiptStatus = Schema.Literals(["pending", "confirmed", "assigned", "ignored"])

export const Receipt = Schema.Struct({
  id: Id,
  wallet_id: Id,
  quote_id: Schema.NullOr(Id),
  document_id: Schema.NullOr(Id),
  asset: Asset,
  txid: Schema.String,
  output_index: Schema.Int,
  address: Schema.String,
  units: Units,
  quantity: Quantity,
  confirmations: Schema.Int,
  status: ReceiptStatus,
  payment: Schema.NullOr(Schema.Literals(["exact", "under", "over", "late"])).annotate({
    description: "Against its quote: paid exactly, under, over, or after the quote expired (priced again)."
  }),
  price: Schema.NullOr(Price),
  value_cents: Schema.NullOr(Schema.Int),
  account: Schema.NullOr(Schema.String),
  entry_id: Schema.NullOr(Id),
  lot_id: Schema.NullOr(Id),
  memo: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  seen_at: Timestamp,
  confirmed_at: Schema.NullOr(Timestamp),
  assigned_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "CryptoReceipt" })
export type Receipt = typeof Receipt.Type

export const listCryptoReceipts = Operation.make({
  id: "listCryptoReceipts",
  method: "GET",
  path: "/v1/crypto/receipts",
  area,
  summary: "Payments seen on chain.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    status: Schema.optionalKey(ReceiptStatus),
    document_id: Schema.optionalKey(Id),
    wallet_id: Schema.optionalKey(Id),
    ...PageQuery
  }),
  errors: [...errors],
  success: Page(Receipt)
})

export const getCryptoReceipt = Operation.make({
  id: "getCryptoReceipt",
  method: "GET",
  path: "/v1/crypto/receipts/{id}",
  area,
  summary: "One payment seen on chain.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  errors: [...errors],
  success: Receipt
})

export const assignCryptoReceipt = Operation.make({
  id: "assignCryptoReceipt",
  method: "POST",
  path: "/v1/crypto/receipts/{id}/assign",
  area,
  summary: "Post a confirmed receipt: against an invoice (paying it, under or over) or an account, at its price; or ignore it.",
  description: "A lot is opened at the receipt's value. Priced at the quote's price when paid in time, else at the price when it " +
    "confirmed, unless `price` is given.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  governed: true,
  pathParams: IdPath,
  body: Schema.Struct({
    document_id: Schema.optionalKey(Id),
    account: Schema.optionalKey(AccountCode),
    memo: Schema.optionalKey(Memo),
    ignore: Schema.optionalKey(Schema.Boolean),
    reason: Schema.optionalKey(Reason),
    price: Schema.optionalKey(Price),
    dry_run: DryRun,
    soft_lock_override_reason: SoftLockOverrideReason
  }),
  success: Receipt,
  status: 201,
  otherResponses: { 200: Governed.preview(Receipt) },
  errors: [...errors, "crypto_receipt_state", "crypto_price_unavailable", "unknown_account", "inactive_account",
    "period_hard_locked", "soft_lock_reason_required", "over_application"]
})


export const operations = [createCryptoQuote, getCryptoQuote, listCryptoReceipts, getCryptoReceipt, assignCryptoReceipt] as const
