import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type OnlinePayments } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { PaymentProcessor, type ProcessorFailure } from "../ports/PaymentProcessor.ts"

/** A processor failure as the API's refusal: 503 when nothing is configured or it is down, 409 when it refused. */
export const refusal = (failure: ProcessorFailure): ApiError.LedgerError =>
  failure.code === "not_configured" ? ApiError.fail("online_payments_not_configured", "No payment processor is configured on this deployment (LEDGER_PAYMENTS_URL).")
    : failure.code === "bad_signature" ? ApiError.fail("invalid_signature", `The event's signature does not verify: ${failure.message}.`)
    : failure.code === "invalid_request" || failure.code === "card_declined" ? ApiError.fail("online_payments_state", `The processor refused: ${failure.message}`)
    : ApiError.fail("processor_unavailable", `The payment processor did not answer: ${failure.message}`)

/** Runs a processor call, its failures as refusals. */
export const processor = <A>(call: (port: PaymentProcessor["Service"]) => Effect.Effect<A, ProcessorFailure>) =>
  Effect.gen(function*() {
    const port = yield* PaymentProcessor
    return yield* call(port).pipe(Effect.mapError(refusal))
  })

/**
 * Whoever books what the processor confirmed: the processor's verified word through the company's
 * connection, a system principal (`system`, named for the connected account), neither a person's
 * request nor the operator's (ADR 1806). Its postings are final like a person's (no threshold, no
 * proposal): a charge, refund, dispute or payout has already happened at the processor.
 */
export const processorActor = (companyId: string, accountId: string | null): Actor => ({
  type: "system",
  id: null,
  name: accountId === null ? "payment processor" : `payment processor ${accountId}`,
  role: null,
  companyId,
  scopes: ["read", "propose", "approve", "admin"],
  isPerson: true,
  keyId: null,
  credentialKind: "none",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: null
})

/** Runs `work` acting in `companyId` as the processor's connection `accountId` (public requests carry no company). */
export const asProcessor = <A, E, R>(companyId: string, work: Effect.Effect<A, E, R>, accountId: string | null = null) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    return yield* work.pipe(Effect.provideService(RequestContext, { ...request, companyId, actor: processorActor(companyId, accountId) }))
  })

export const settingsOf = (row: Record<string, unknown> | undefined): OnlinePayments.Settings.Settings => ({
  enabled: row?.enabled === true,
  accept_card: row === undefined ? true : row.accept_card === true,
  accept_ach: row?.accept_ach === true,
  accept_stablecoin: row?.accept_stablecoin === true,
  allow_partial: row?.allow_partial === true,
  clearing_account: String(row?.clearing_account ?? "1150"),
  fees_account: String(row?.fees_account ?? "6010"),
  refunds_account: String(row?.refunds_account ?? "4900"),
  chargebacks_account: String(row?.chargebacks_account ?? "6010"),
  payout_bank_account_id: Row.intOrNull(row?.payout_bank_account_id ?? null),
  provider: "provider_a",
  account_status: row?.processor_account_id == null ? "not_connected" : row.charges_enabled === true ? "active" : "onboarding",
  charges_enabled: row?.charges_enabled === true,
  payouts_enabled: row?.payouts_enabled === true,
  updated_at: row?.updated_at == null ? null : Row.iso(row.updated_at)
})

export const loadSettingsRow = Effect.fn("OnlinePayments.loadSettingsRow")(function*(company: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_payment_settings WHERE company_id = ${company}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return rows[0]
})

/** The processor's connected account of a company that takes payments, else 409. */
export const requireActive = (row: Record<string, unknown> | undefined) => {
  const settings = settingsOf(row)
  if (!settings.enabled || settings.account_status !== "active") {
    return Effect.fail(ApiError.fail("online_payments_state", "Online payments are not switched on, or the processor account has not finished onboarding."))
  }
  return Effect.succeed({ settings, accountId: String(row!.processor_account_id) })
}
