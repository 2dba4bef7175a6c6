import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Sales } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import type { ResolvedLine } from "../documents/DocumentLines.ts"
import { lineToWire, taxLineToWire } from "../documents/DocumentWire.ts"
import type { TaxLine } from "../tax/SalesTaxRules.ts"

/**
 * Estimates (spec 3.4): quotes that never post. Their lines are resolved like an invoice's and
 * kept as they were quoted; converting one makes an invoice through the governed path.
 */
export type Status = "open" | "accepted" | "declined" | "converted" | "void"

/** The moves of spec 3.4; `converted` is reached only by converting. */
export const transitions: Record<Status, ReadonlyArray<Status>> = {
  open: ["accepted", "declined", "void"],
  accepted: ["open", "void"],
  declined: ["open", "void"],
  converted: [],
  void: []
}

export const canMove = (from: Status, to: Status): boolean => transitions[from].includes(to)
export const canConvert = (status: Status): boolean => status === "open" || status === "accepted"

export const toWire = (row: Record<string, unknown>, asOf: string): Sales.Estimates.Estimate => {
  const lines = Row.json<ReadonlyArray<ResolvedLine>>(row.lines)
  const taxLines = Row.json<ReadonlyArray<TaxLine>>(row.tax_lines)
  const status = String(row.status) as Status
  const expiry = row.expiry_date === null ? null : Row.date(row.expiry_date)
  return {
    id: Row.int(row.id),
    contact_id: Row.int(row.contact_id),
    number: String(row.number),
    estimate_date: Row.date(row.estimate_date),
    expiry_date: expiry,
    expired: (status === "open" || status === "accepted") && expiry !== null && expiry < asOf,
    reference: (row.reference as string | null) ?? null,
    memo: (row.memo as string | null) ?? null,
    tax_rate_id: Row.intOrNull(row.tax_rate_id),
    lines: lines.map(lineToWire),
    tax_lines: taxLines.map(taxLineToWire),
    subtotal_cents: Row.int(row.subtotal_cents),
    tax_cents: Row.int(row.tax_cents),
    total_cents: Row.int(row.total_cents),
    status,
    status_reason: (row.status_reason as string | null) ?? null,
    invoice_id: Row.intOrNull(row.invoice_id),
    created_at: Row.iso(row.created_at),
    updated_at: Row.iso(row.updated_at)
  }
}

export const loadRow = Effect.fn("EstimateStore.loadRow")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM estimates WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("estimate"))
  return rows[0]
})

/** The invoice request an estimate converts into: its lines exactly as quoted. */
export const invoiceRequest = (estimate: Sales.Estimates.Estimate, body: {
  readonly doc_date?: string | undefined
  readonly due_date?: string | undefined
  readonly terms_days?: number | undefined
  readonly number?: string | undefined
  readonly memo?: string | undefined
}, today: string) => ({
  contact_id: estimate.contact_id,
  doc_date: body.doc_date ?? today,
  ...(body.due_date === undefined ? {} : { due_date: body.due_date }),
  ...(body.terms_days === undefined ? {} : { terms_days: body.terms_days }),
  ...(body.number === undefined ? {} : { number: body.number }),
  ...(body.memo === undefined ? (estimate.memo === null ? {} : { memo: estimate.memo }) : { memo: body.memo }),
  reference: estimate.reference ?? estimate.number,
  ...(estimate.tax_rate_id === null ? {} : { tax_rate_id: estimate.tax_rate_id }),
  lines: estimate.lines.map((line) => ({
    ...(line.item_id === null ? {} : { item_id: line.item_id }),
    ...(line.description === null ? {} : { description: line.description }),
    account: line.account,
    ...(line.quantity === null ? {} : { quantity: line.quantity }),
    ...(line.unit_price_cents === null ? {} : { unit_price_cents: line.unit_price_cents }),
    amount_cents: line.amount_cents,
    ...(line.class === null ? {} : { class: line.class }),
    taxable: line.taxable
  }))
})
