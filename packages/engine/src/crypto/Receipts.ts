import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Access from "./Access.ts"
import * as LotStore from "./LotStore.ts"
import * as Posting from "./Posting.ts"
import * as ReceiptStore from "./ReceiptStore.ts"
import * as Rows from "./core/Rows.ts"
import { type Asset, dayOf, valueCents } from "./core/UnitRules.ts"
import * as Prices from "./core/Prices.ts"
import * as WalletStore from "./WalletStore.ts"

/**
 * Receipts: payments the watcher saw. A person assigns a confirmed one to an invoice (it pays the
 * invoice, any excess left as the customer's credit) or to an account, at its price: the quote's
 * when it was paid in time, else the price when it confirmed, or the `price` given. The receipt
 * opens a lot at that value. Or the person ignores it, with a reason.
 */

type Body = typeof Crypto.Receipts.assignCryptoReceipt.body.Type

const priceOf = Effect.fn("Receipts.priceOf")(function*(company: string, receipt: Record<string, unknown>, body: Body) {
  if (body.price !== undefined) return body.price
  if (receipt.quote_id !== null && receipt.payment !== "late") return String((yield* ReceiptStore.loadQuote(company, Row.int(receipt.quote_id))).price)
  const at = Row.iso(receipt.confirmed_at ?? receipt.seen_at)
  return (yield* Prices.priceAt(receipt.asset as Asset, at, body.dry_run !== true)).price
})

const target = Effect.fn("Receipts.target")(function*(company: string, receipt: Record<string, unknown>, body: Body) {
  const documentId = body.document_id ?? (body.account === undefined ? Row.intOrNull(receipt.document_id) : null)
  if (documentId !== null) return { invoice: yield* ReceiptStore.invoice(company, documentId, ["body", "document_id"]), account: null }
  if (body.account === undefined) {
    return yield* Effect.fail(ApiError.validationFailed("Name the invoice (document_id) or the account the receipt is for, or ignore it.", [
      { path: ["body", "document_id"], message: "Required without account." }
    ]))
  }
  return { invoice: null, account: body.account }
})

const assign = Handler.make(Crypto.Receipts.assignCryptoReceipt, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const { company } = yield* Access.requireEnabled
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const receipt = yield* ReceiptStore.loadReceipt(company, path.id, true)
    if (receipt.status !== "confirmed") {
      return yield* Effect.fail(ApiError.fail("crypto_receipt_state", receipt.status === "pending"
        ? "The payment does not have its confirmations yet." : `The receipt is already ${String(receipt.status)}.`, { status: receipt.status }))
    }
    const by = Actor.reference(request.actor)
    if (body.ignore === true) {
      if (body.reason === undefined) return yield* Effect.fail(ApiError.validationFailed("Ignoring a receipt needs a reason.", [{ path: ["body", "reason"], message: "Required." }]))
      const ignored = { ...Rows.receipt(receipt), status: "ignored" as const, reason: body.reason }
      if (body.dry_run === true) return { status: 200, body: { dry_run: true, verdict: "post", reasons: [], entry: { date: request.today, memo: null, lines: [], total_cents: 0 }, document: ignored, balances: [] } }
      const rows = yield* sql<Record<string, unknown>>`UPDATE crypto_receipts SET status = 'ignored', reason = ${body.reason}, assigned_at = ${request.now},
        assigned_by = ${by} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return { status: 201, body: Rows.receipt(rows[0]!), audit: { targetType: "crypto_receipt", targetId: path.id, reason: body.reason, details: { ignored: true } } }
    }
    const wallet = yield* WalletStore.loadRow(company, Row.int(receipt.wallet_id))
    const asset = receipt.asset as Asset
    const units = Rows.big(receipt.units)
    const price = yield* priceOf(company, receipt, body)
    const value = valueCents(units, price, asset)
    const { invoice, account } = yield* target(company, receipt, body)
    const at = Row.iso(receipt.confirmed_at ?? receipt.seen_at)
    const date = dayOf(at)
    const memo = body.memo ?? (invoice === null ? `Crypto receipt ${String(receipt.txid).slice(0, 16)}` : `Crypto payment of invoice ${invoice.number}`)
    const walletAccount = String(wallet.ledger_account)
    const assigned = (entryId: number | null, lotId: number | null) => ({
      status: "assigned", price, value_cents: value, account: invoice === null ? account : invoice.controlAccount,
      document_id: invoice?.id ?? null, entry_id: entryId, lot_id: lotId, memo, assigned_at: request.now, assigned_by: by
    })
    return yield* Posting.post({
      kind: "crypto_receipt",
      summary: `${memo}: ${Rows.receipt(receipt).quantity} ${asset}`,
      date,
      memo,
      lines: [
        { account: walletAccount, debit_cents: value },
        invoice === null ? { account: account!, credit_cents: value } : { account: invoice.controlAccount, credit_cents: value, contact_id: invoice.contactId }
      ],
      request: body,
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      document: Rows.receipt({ ...receipt, ...assigned(null, null) }),
      // The entry leads to the receipt it assigns.
      sourceId: path.id,
      onPosted: (entryId) =>
        Effect.gen(function*() {
          const lot = yield* LotStore.insertLot(company, { walletId: Row.int(wallet.id), asset, source: "receipt", acquiredAt: at, units, costCents: value, entryId, now: request.now })
          if (invoice !== null && entryId !== null) {
            yield* ReceiptStore.payInvoice({ invoice, valueCents: value, date, account: walletAccount, txid: String(receipt.txid), entryId, memo })
          }
          const rows = yield* sql<Record<string, unknown>>`UPDATE crypto_receipts SET ${sql.update(assigned(entryId, Row.int(lot.id)))}
            WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
          yield* Outbox.emit("crypto.receipt_assigned", { receipt_id: path.id, document_id: invoice?.id ?? null, value_cents: value, entry_id: entryId }).pipe(Effect.orDie)
          return Rows.receipt(rows[0]!)
        })
    })
  }))

export const handlers = [
  assign,
  Handler.make(Crypto.Receipts.listCryptoReceipts, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM crypto_receipts WHERE company_id = ${company}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${query.document_id === undefined ? sql`` : sql`AND document_id = ${query.document_id}`}
        ${query.wallet_id === undefined ? sql`` : sql`AND wallet_id = ${query.wallet_id}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), Rows.receipt) }
    })),
  Handler.make(Crypto.Receipts.getCryptoReceipt, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: Rows.receipt(yield* ReceiptStore.loadReceipt(company, path.id)) }
    }))
]
