import type { Crypto } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import { type Asset, fromUnits } from "./UnitRules.ts"

/** Rows of the crypto tables as the API shows them. numeric(40,0) columns arrive as strings or numbers: read as bigint. */

export const big = (value: unknown): bigint => {
  if (typeof value === "bigint") return value
  const text = String(value ?? "0")
  return BigInt(text.includes(".") ? text.slice(0, text.indexOf(".")) : text)
}

const text = (value: unknown): string | null => value === null || value === undefined ? null : String(value)
const isoOrNull = (value: unknown): string | null => value === null || value === undefined ? null : Row.iso(value)

export const wallet = (row: Record<string, unknown>, balanceUnits: bigint): Crypto.Wallets.Wallet => ({
  id: Row.int(row.id),
  rail: row.rail as Crypto.Shared.Rail,
  asset: row.asset as Crypto.Shared.Asset,
  name: String(row.name),
  key_kind: row.key_kind as Crypto.Wallets.Wallet["key_kind"],
  script_type: row.script_type as Crypto.Wallets.Wallet["script_type"],
  network: row.network as Crypto.Wallets.Wallet["network"],
  key_fingerprint: String(row.key_fingerprint),
  address: text(row.address),
  restore_height: Row.intOrNull(row.restore_height),
  lot_method: row.lot_method as Crypto.Shared.LotMethod,
  gap_limit: Row.int(row.gap_limit),
  next_index: Row.int(row.next_index),
  ledger_account: String(row.ledger_account),
  balance_units: balanceUnits.toString(),
  archived: row.archived === true,
  archive_reason: text(row.archive_reason),
  archived_at: isoOrNull(row.archived_at),
  created_at: Row.iso(row.created_at)
})

export const lot = (row: Record<string, unknown>): Crypto.Lots.Lot => {
  const asset = row.asset as Asset
  return {
    id: Row.int(row.id),
    wallet_id: Row.int(row.wallet_id),
    asset,
    source: row.source as Crypto.Lots.Lot["source"],
    acquired_at: Row.iso(row.acquired_at),
    units: big(row.units).toString(),
    remaining_units: big(row.remaining_units).toString(),
    quantity: fromUnits(big(row.units), asset),
    remaining_quantity: fromUnits(big(row.remaining_units), asset),
    cost_cents: Row.int(row.cost_cents),
    remaining_cost_cents: Row.int(row.remaining_cost_cents),
    entry_id: Row.intOrNull(row.entry_id),
    created_at: Row.iso(row.created_at)
  }
}

export const quote = (row: Record<string, unknown>, uri: string): Crypto.Receipts.Quote => ({
  id: Row.int(row.id),
  wallet_id: Row.int(row.wallet_id),
  document_id: Row.int(row.document_id),
  asset: row.asset as Asset,
  address: String(row.address),
  address_index: Row.intOrNull(row.address_index),
  amount_cents: Row.int(row.amount_cents),
  price: String(row.price),
  amount_units: big(row.amount_units).toString(),
  amount: fromUnits(big(row.amount_units), row.asset as Asset),
  received_units: big(row.received_units).toString(),
  expires_at: Row.iso(row.expires_at),
  status: row.status as Crypto.Receipts.Quote["status"],
  uri,
  created_at: Row.iso(row.created_at)
})

export const receipt = (row: Record<string, unknown>): Crypto.Receipts.Receipt => ({
  id: Row.int(row.id),
  wallet_id: Row.int(row.wallet_id),
  quote_id: Row.intOrNull(row.quote_id),
  document_id: Row.intOrNull(row.document_id),
  asset: row.asset as Asset,
  txid: String(row.txid),
  output_index: Row.int(row.output_index),
  address: String(row.address),
  units: big(row.units).toString(),
  quantity: fromUnits(big(row.units), row.asset as Asset),
  confirmations: Row.int(row.confirmations),
  status: row.status as Crypto.Receipts.Receipt["status"],
  payment: (text(row.payment) as Crypto.Receipts.Receipt["payment"]) ?? null,
  price: text(row.price),
  value_cents: Row.intOrNull(row.value_cents),
  account: text(row.account),
  entry_id: Row.intOrNull(row.entry_id),
  lot_id: Row.intOrNull(row.lot_id),
  memo: text(row.memo),
  reason: text(row.reason),
  seen_at: Row.iso(row.seen_at),
  confirmed_at: isoOrNull(row.confirmed_at),
  assigned_at: isoOrNull(row.assigned_at)
})

export const valuation = (row: Record<string, unknown>): Crypto.Valuations.Valuation => ({
  id: Row.int(row.id),
  asset: row.asset as Asset,
  at: Row.iso(row.at),
  price: String(row.price),
  reason: String(row.reason),
  status: row.status as Crypto.Valuations.Valuation["status"],
  manual: row.manual === true,
  proposed_by: String(row.proposed_by),
  decided_by: text(row.decided_by),
  decided_at: isoOrNull(row.decided_at),
  created_at: Row.iso(row.created_at)
})
