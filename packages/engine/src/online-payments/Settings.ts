import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, OnlinePayments } from "@ledger/api"
import * as Deployment from "../kernel/EngineInfo.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { requireStepUp } from "../kernel/StepUp.ts"
import { AccountStore } from "../ledger/index.ts"
import { loadSettingsRow, processor, settingsOf } from "./Common.ts"
import * as Sync from "./Sync.ts"

type Body = typeof OnlinePayments.Settings.updateOnlinePaymentSettings.body.Type
const accountFields = ["clearing_account", "fees_account", "refunds_account", "chargebacks_account"] as const

const checkAccounts = Effect.fn("OnlinePayments.checkAccounts")(function*(company: string, settings: OnlinePayments.Settings.Settings) {
  const found = yield* AccountStore.accountsByCode(company, accountFields.map((field) => settings[field]))
  for (const field of accountFields) {
    const account = found.get(settings[field])
    if (account === undefined) return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${settings[field]}.`, { issues: [{ path: ["body", field], message: "Unknown account" }] }))
    if (!account.active) return yield* Effect.fail(ApiError.fail("inactive_account", `Account ${settings[field]} is inactive.`, { issues: [{ path: ["body", field], message: "Inactive" }] }))
  }
  if (settings.payout_bank_account_id !== null) {
    const sql = yield* SqlClient.SqlClient
    const bank = yield* sql`SELECT 1 FROM bank_accounts WHERE company_id = ${company} AND id = ${settings.payout_bank_account_id}`.pipe(Effect.orDie)
    if (bank.length === 0) return yield* Effect.fail(ApiError.notFound("bank account"))
  }
})

const save = Effect.fn("OnlinePayments.saveSettings")(function*(company: string, body: Body) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const current = settingsOf(yield* loadSettingsRow(company, true))
  const next = { ...current, ...body }
  yield* checkAccounts(company, next)
  const fields = {
    enabled: next.enabled, accept_card: next.accept_card, accept_ach: next.accept_ach, accept_stablecoin: next.accept_stablecoin,
    allow_partial: next.allow_partial, clearing_account: next.clearing_account, fees_account: next.fees_account,
    refunds_account: next.refunds_account, chargebacks_account: next.chargebacks_account,
    payout_bank_account_id: next.payout_bank_account_id, updated_at: request.now
  }
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO online_payment_settings ${sql.insert({ company_id: company, ...fields })}
    ON CONFLICT (company_id) DO UPDATE SET ${sql.update(fields)} RETURNING *`.pipe(Effect.orDie)
  return settingsOf(rows[0])
})

export const handlers = [
  Handler.make(OnlinePayments.Settings.getOnlinePaymentSettings, () =>
    Effect.gen(function*() {
      return { body: settingsOf(yield* loadSettingsRow(yield* requireCompanyId)) }
    })),

  Handler.make(OnlinePayments.Settings.updateOnlinePaymentSettings, ({ body }) =>
    Effect.gen(function*() {
      // Payment settings are a sensitive change (concepts 5.5): the signed-in session steps up.
      yield* requireStepUp
      const company = yield* requireCompanyId
      const saved = yield* save(company, body)
      return { body: saved, audit: { targetType: "online_payment_settings", targetId: company, details: { ...body } } }
    })),

  Handler.make(OnlinePayments.Settings.startOnlinePaymentOnboarding, () =>
    Effect.gen(function*() {
      // Onboarding connects where the company's money is paid out (concepts 5.5): a step-up.
      yield* requireStepUp
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      // The processor sends the person back to the app and refuses a relative address: without
      // one, nothing is created at the processor.
      const app = yield* Deployment.appUrl
      if (app === null) {
        return yield* Effect.fail(ApiError.fail("online_payments_not_configured",
          "Onboarding needs the web app's address for the processor to send people back to (LEDGER_APP_URL or LEDGER_BASE_URL)."))
      }
      const row = yield* loadSettingsRow(company, true)
      let accountId = row?.processor_account_id == null ? null : String(row.processor_account_id)
      if (accountId === null) {
        // The key makes a retried first onboarding reach the same processor account.
        const created = yield* processor((port) => port.createAccount({ reference: company, idempotencyKey: `ledger-account-${company}` }))
        accountId = created.id
        yield* sql`INSERT INTO online_payment_settings ${sql.insert({ company_id: company, processor_account_id: accountId })}
          ON CONFLICT (company_id) DO UPDATE SET processor_account_id = ${accountId}`.pipe(Effect.orDie)
      }
      const id = accountId
      const link = yield* processor((port) => port.accountLink({
        accountId: id, returnUrl: Deployment.under(app, "/settings/online-payments?onboarding=done"), refreshUrl: Deployment.under(app, "/settings/online-payments?onboarding=again")
      }))
      return {
        body: { url: link.url, expires_at: new Date(link.expiresAt * 1000).toISOString(), provider: "provider_a" as const },
        audit: { targetType: "online_payment_settings", targetId: company }
      }
    })),

  Handler.make(OnlinePayments.Settings.syncOnlinePayments, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const result = yield* Sync.run(company)
      return { body: result, audit: { targetType: "online_payment_settings", targetId: company, details: result } }
    }))
]
