import { Effect } from "effect"
import { Base64Url } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { ApiError, OnlinePayments, type Sales as SalesApi } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import { Entropy } from "../ports/Entropy.ts"
import { area as sales } from "../sales/index.ts"
import { asProcessor, loadSettingsRow, processor, requireActive } from "./Common.ts"
import * as PaymentRules from "./PaymentRules.ts"

const payable = (document: SalesApi.Documents.Document) =>
  document.kind === "invoice" && document.status !== "void" && document.open_balance_cents > 0
    ? Effect.succeed(document)
    : Effect.fail(ApiError.fail("document_not_payable", "This invoice has nothing left to pay."))

const invoice = (id: number) =>
  Effect.map(sales.handlers.getDocument!({ path: { id }, query: {}, body: undefined }), (result) => result.body as SalesApi.Documents.Document)

/** The link behind a token: any token that is not one answers the same 404 (nothing to tell apart). */
const byToken = Effect.fn("PayPage.byToken")(function*(token: string) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_pay_links WHERE token_hash = ${Secret.sha256Hex(token)}`.pipe(Effect.orDie)
  const link = rows[0]
  if (link === undefined) return yield* Effect.fail(ApiError.notFound("pay link"))
  if (Date.parse(Row.iso(link.expires_at)) <= Date.parse(request.now)) return yield* Effect.fail(ApiError.fail("pay_link_expired", "This pay link has expired: ask for a new one."))
  return { company: String(link.company_id), documentId: Row.int(link.document_id), expiresAt: Row.iso(link.expires_at) }
})

const companyName = Effect.fn("PayPage.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? ""
})

export const handlers = [
  Handler.make(OnlinePayments.PayPage.createPayLink, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const entropy = yield* Entropy
      const company = yield* requireCompanyId
      yield* requireActive(yield* loadSettingsRow(company))
      const document = yield* payable(yield* invoice(body.document_id))
      const token = `pay_${Base64Url.encode(yield* entropy.bytes(32))}`
      const expiresAt = new Date(Date.parse(request.now) + (body.expires_days ?? 30) * 86_400_000).toISOString()
      yield* sql`INSERT INTO online_pay_links ${sql.insert({
        company_id: company, document_id: document.id, token_hash: Secret.sha256Hex(token), expires_at: expiresAt,
        created_by: reference(request.actor), created_at: request.now
      })}`.pipe(Effect.orDie)
      return {
        body: { document_id: document.id, url: `/pay/${token}`, token, expires_at: expiresAt },
        audit: { targetType: "document", targetId: document.id, details: { pay_link_expires_at: expiresAt } }
      }
    })),

  Handler.make(OnlinePayments.PayPage.getPayPage, ({ path }) =>
    Effect.gen(function*() {
      const link = yield* byToken(path.token)
      return yield* asProcessor(link.company, Effect.gen(function*() {
        const { settings } = yield* requireActive(yield* loadSettingsRow(link.company))
        const document = yield* payable(yield* invoice(link.documentId))
        return {
          body: {
            company_name: yield* companyName(link.company), invoice_number: document.number, doc_date: document.doc_date, due_date: document.due_date,
            currency: "usd" as const, total_cents: document.total_cents, open_balance_cents: document.open_balance_cents,
            allow_partial: settings.allow_partial, methods: PaymentRules.methodsOf(settings), expires_at: link.expiresAt
          }
        }
      }))
    })),

  Handler.make(OnlinePayments.PayPage.payInvoiceOnline, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const link = yield* byToken(path.token)
      return yield* asProcessor(link.company, Effect.gen(function*() {
        const { settings, accountId } = yield* requireActive(yield* loadSettingsRow(link.company))
        const document = yield* payable(yield* invoice(link.documentId))
        if (!PaymentRules.methodsOf(settings).includes(body.method)) return yield* Effect.fail(ApiError.fail("method_not_accepted", `This company does not take ${body.method} payments.`))
        const amount = PaymentRules.payableAmount(document.open_balance_cents, body.amount_cents, settings.allow_partial)
        if (!amount.ok) {
          return yield* Effect.fail(amount.why === "over"
            ? ApiError.validationFailed("More than the open balance.", [{ path: ["body", "amount_cents"], message: `At most ${document.open_balance_cents}` }])
            : ApiError.fail("partial_payment_not_allowed", "This invoice is paid in full only."))
        }
        const id = Row.int((yield* sql<{ id: unknown }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie))[0]!.id)
        const intent = yield* processor((port) => port.createPaymentIntent({
          accountId, amountCents: amount.cents, methods: [PaymentRules.processorMethod(body.method)], description: `Invoice ${document.number}`,
          metadata: { company_id: link.company, document_id: String(document.id), charge_id: String(id) }, idempotencyKey: `ledger-charge-${link.company}-${id}`
        }))
        yield* sql`INSERT INTO online_charges ${sql.insert({
          company_id: link.company, id, document_id: document.id, contact_id: document.contact_id, method: body.method, status: "pending",
          amount_cents: amount.cents, processor_payment_id: intent.id, created_at: request.now, updated_at: request.now
        })}`.pipe(Effect.orDie)
        return {
          status: 201,
          body: { client_secret: intent.clientSecret, amount_cents: amount.cents, status: "pending" as const },
          audit: { companyId: link.company, targetType: "online_charge", targetId: id, details: { document_id: document.id, amount_cents: amount.cents } }
        }
      }))
    }))
]
