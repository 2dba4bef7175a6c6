import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { fromUnits, type Asset } from "./core/UnitRules.ts"
import * as Rows from "./core/Rows.ts"
import { recordReceivedPayment } from "../sales/index.ts"

/**
 * The SQL of quotes and receipts, and the two reads and one write of a sales invoice that a crypto
 * payment needs (docs/decisions/1502): its open balance, its customer and control account; the
 * payment itself is written by sales' own code.
 */

export interface Invoice {
  readonly id: number
  readonly number: string
  readonly contactId: number
  readonly controlAccount: string
  readonly openCents: number
}

export const invoice = Effect.fn("ReceiptStore.invoice")(function*(company: string, id: number, path: ReadonlyArray<string | number>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT d.id, d.number, d.contact_id, d.control_account, d.total_cents - coalesce((
      SELECT sum(a.amount_cents) FROM applications a WHERE a.company_id = d.company_id AND a.document_id = d.id AND a.voided_on IS NULL), 0) AS open_cents
    FROM documents d WHERE d.company_id = ${company} AND d.id = ${id} AND d.kind = 'invoice' AND NOT d.voided FOR UPDATE OF d`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) {
    return yield* Effect.fail(ApiError.validationFailed("No open invoice with this id.", [{ path: [...path], message: "Not an invoice of this company, or voided." }]))
  }
  return { id: Row.int(row.id), number: String(row.number), contactId: Row.int(row.contact_id), controlAccount: String(row.control_account), openCents: Row.int(row.open_cents) } satisfies Invoice
})

/**
 * A crypto payment of an invoice, recorded through sales' own payment code (`recordReceivedPayment`):
 * the payment (its whole value, the excess left as the customer's credit) and its application (at
 * most what is open), with sales' checks and events.
 */
export const payInvoice = Effect.fn("ReceiptStore.payInvoice")(function*(input: {
  readonly invoice: Invoice
  readonly valueCents: number
  readonly date: string
  readonly account: string
  readonly txid: string
  readonly entryId: number
  readonly memo: string | null
}) {
  const applied = Math.min(input.valueCents, input.invoice.openCents)
  const paymentId = yield* recordReceivedPayment({
    contactId: input.invoice.contactId, paymentDate: input.date, account: input.account, controlAccount: input.invoice.controlAccount,
    amountCents: input.valueCents, applications: applied > 0 ? [{ document_id: input.invoice.id, amount_cents: applied }] : [],
    reference: input.txid.slice(0, 100), memo: input.memo, entryId: input.entryId
  })
  return { paymentId, appliedCents: applied }
})

export const uriOf = (row: Record<string, unknown>): string => {
  const amount = fromUnits(Rows.big(row.amount_units), row.asset as Asset)
  const address = String(row.address)
  return row.asset === "BTC" ? `bitcoin:${address}?amount=${amount}` : row.asset === "XMR" ? `monero:${address}?tx_amount=${amount}` : address
}

/** A quote as shown at `now`: an open quote past its time reads as expired before the watcher marks it. */
export const quoteOf = (row: Record<string, unknown>, now: string): ReturnType<typeof Rows.quote> => {
  const shown = Rows.quote(row, uriOf(row))
  return shown.status === "open" && shown.expires_at < now ? { ...shown, status: "expired" } : shown
}

export const loadQuote = Effect.fn("ReceiptStore.loadQuote")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_quotes WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("quote"))
  return rows[0]
})

export const loadReceipt = Effect.fn("ReceiptStore.loadReceipt")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_receipts WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("receipt"))
  return rows[0]
})
