import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Receipts } from "@ledger/api"
import { BankLineLinks } from "../banking/index.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { proposalKind as declareKind } from "../kernel/Registry.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { Governed, JournalEntryStore } from "../ledger/index.ts"
import { requireNotDiscarded } from "./Receipts.ts"
import * as ReceiptStore from "./ReceiptStore.ts"

/**
 * A receipt and the books: matched to a bank line (posted when the line is), attached to a posted
 * expense, check or bill, or posted itself as an expense through the ledger's governed path. An
 * agent's expense from a receipt always waits for a person (reason `receipt_review`, spec 3.7).
 */

const Ops = Receipts.Records

const stateError = (message: string, receipt: Receipts.Records.Receipt) =>
  Effect.fail(ApiError.fail("receipt_state", message, { status: receipt.status }))

const ExpenseRequest = Schema.Struct({ receipt_id: Schema.Number })

const linkExpense = Effect.fn("ReceiptLinks.linkExpense")(function*(receiptId: number, entryId: number) {
  const company = yield* requireCompanyId
  const request = yield* RequestContext
  const updated = yield* ReceiptStore.update(company, receiptId, { entry_id: entryId, proposal_id: null, updated_at: request.now })
  return ReceiptStore.present(updated)
})

export const expenseProposalKind = declareKind({
  request: ExpenseRequest,
  // The entry leads to its receipt, as an expense that posts directly does.
  sourceId: ({ request }) => Effect.succeed(request.receipt_id),
  approved: ({ request, entry }) => linkExpense(request.receipt_id, entry.id),
  rejected: ({ proposal, request }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* ReceiptStore.load(company, request.receipt_id, true)
      if (Row.intOrNull(row.proposal_id) === proposal.id) yield* ReceiptStore.update(company, request.receipt_id, { proposal_id: null })
    })
})

/** A bill (sales' documents) or a posted, unreversed entry (an expense or check) of this company. */
const checkDocument = Effect.fn("ReceiptLinks.checkDocument")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const documents = yield* sql<{ kind: string; status: string }>`SELECT kind, CASE WHEN voided THEN 'void' ELSE 'posted' END AS status
    FROM documents WHERE company_id = ${company} AND id = ${id}`
    .pipe(Effect.orDie)
  if (documents[0] !== undefined) {
    if (documents[0].kind !== "bill" || documents[0].status === "void") {
      return yield* Effect.fail(ApiError.validationFailed("A receipt is attached to a posted bill, expense or check.", [
        { path: ["body", "document_id"], message: `A ${documents[0].kind} (${documents[0].status})` }
      ]))
    }
    return "bill"
  }
  const entry = yield* JournalEntryStore.load(id)
  if (entry === undefined) return yield* Effect.fail(ApiError.notFound("document"))
  if (entry.record.reversed_by_entry_id !== null || entry.record.reverses_entry_id !== null) {
    return yield* Effect.fail(ApiError.validationFailed("The entry is reversed or a reversal.", [{ path: ["body", "document_id"], message: "Reversed" }]))
  }
  return "entry"
})

const matchHandler = Handler.make(Ops.matchReceipt, ({ path, body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const request = yield* RequestContext
    const sql = yield* SqlClient.SqlClient
    const row = yield* ReceiptStore.load(company, path.id, true)
    yield* requireNotDiscarded(row)
    const receipt = ReceiptStore.present(row)
    if (receipt.status !== "new" && receipt.status !== "extracted") return yield* stateError(`The receipt is ${receipt.status}.`, receipt)
    const line = yield* BankLineLinks.lockLine(body.bank_line_id)
    if (Row.int(line.amount_cents) >= 0 || line.status === "excluded") {
      const message = "A receipt matches money out of a bank account that is not excluded."
      return yield* Effect.fail(ApiError.validationFailed(message, [{ path: ["body", "bank_line_id"], message }]))
    }
    const holders = yield* sql<{ id: unknown }>`SELECT id FROM receipts WHERE company_id = ${company} AND bank_line_id = ${body.bank_line_id}
      AND NOT discarded AND id <> ${path.id}`.pipe(Effect.orDie)
    if (holders[0] !== undefined) {
      return yield* Effect.fail(ApiError.fail("receipt_state", "Another receipt is matched to this bank line.", { receipt_id: Row.int(holders[0].id) }))
    }
    const updated = yield* ReceiptStore.update(company, path.id, { bank_line_id: body.bank_line_id, updated_at: request.now })
    return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, details: { bank_line_id: body.bank_line_id } } }
  }))

const unmatchHandler = Handler.make(Ops.unmatchReceipt, ({ path }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const request = yield* RequestContext
    const receipt = ReceiptStore.present(yield* ReceiptStore.load(company, path.id, true))
    if (receipt.status !== "matched") return yield* stateError("Only a matched receipt whose bank line has not posted can be unmatched.", receipt)
    const updated = yield* ReceiptStore.update(company, path.id, { bank_line_id: null, updated_at: request.now })
    return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, details: { bank_line_id: receipt.bank_line_id } } }
  }))

const attachHandler = Handler.make(Ops.attachReceipt, ({ path, body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const request = yield* RequestContext
    const row = yield* ReceiptStore.load(company, path.id, true)
    yield* requireNotDiscarded(row)
    const receipt = ReceiptStore.present(row)
    if (receipt.status === "posted" || receipt.status === "matched" || receipt.proposal_id !== null) {
      return yield* stateError(`The receipt is already ${receipt.proposal_id !== null ? "waiting for approval" : receipt.status}.`, receipt)
    }
    const kind = yield* checkDocument(company, body.document_id)
    const updated = yield* ReceiptStore.update(company, path.id, { document_id: body.document_id, updated_at: request.now })
    return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, details: { document_id: body.document_id, kind } } }
  }))

const expenseHandler = Handler.make(Ops.createReceiptExpense, ({ path, body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const request = yield* RequestContext
    const row = yield* ReceiptStore.load(company, path.id, true)
    yield* requireNotDiscarded(row)
    const receipt = ReceiptStore.present(row)
    if (receipt.status === "posted" || receipt.status === "matched" || receipt.proposal_id !== null) {
      return yield* stateError(`The receipt is already ${receipt.proposal_id !== null ? "waiting for approval" : receipt.status}.`, receipt)
    }
    const amount = body.amount_cents ?? receipt.total_cents
    const date = body.doc_date ?? receipt.date ?? request.today
    if (amount === null) {
      const message = "The receipt has no total: send amount_cents."
      return yield* Effect.fail(ApiError.validationFailed(message, [{ path: ["body", "amount_cents"], message }]))
    }
    const memo = body.memo ?? `Receipt ${receipt.vendor ?? receipt.file_name}`
    const line = { class: body.class ?? null, contact_id: body.payee_id ?? null, memo }
    const written = yield* Governed.write({
      kind: "receipt_expense",
      summary: `Expense from receipt ${receipt.vendor ?? receipt.file_name} (${amount} cents) to ${body.account}`.slice(0, 200),
      entry: {
        date, memo,
        lines: [{ account: body.account, debit_cents: amount, ...line }, { account: body.payment_account, credit_cents: amount, memo, contact_id: body.payee_id ?? null }]
      },
      request: { receipt_id: path.id },
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason ?? null,
      confidence: body.confidence ?? null,
      sourceId: path.id,
      linesPath: ["body"],
      alwaysProposeForAgents: { type: "receipt_review", message: "An agent's expense from a receipt waits for a person to review the receipt." },
      preview: { document: { receipt_id: path.id, payment_account: body.payment_account, account: body.account, amount_cents: amount } },
      onPosted: (entry) => linkExpense(path.id, entry.id),
      onProposed: (proposal) => Effect.asVoid(ReceiptStore.update(company, path.id, { proposal_id: proposal.id, updated_at: request.now }))
    })
    return {
      ...(written.status === undefined ? {} : { status: written.status }),
      body: written.body,
      audit: { targetType: "receipt", targetId: path.id, details: { ...written.audit?.details, account: body.account } }
    }
  }))

export const handlers = [matchHandler, unmatchHandler, attachHandler, expenseHandler]
