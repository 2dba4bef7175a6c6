import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { AccountStore, addAccounts } from "../ledger/index.ts"
import * as Access from "./Access.ts"

/** GET and POST /v1/crypto/settings: the accounts crypto posts to are created when it is first switched on. */

const wire = (settings: Access.Settings, addon: boolean): Crypto.Settings.CryptoSettings => ({
  enabled: settings.enabled,
  addon,
  quote_minutes: settings.quoteMinutes,
  btc_confirmations: settings.btcConfirmations,
  xmr_confirmations: settings.xmrConfirmations,
  remeasure: settings.remeasure,
  realized_account: settings.realizedAccount,
  unrealized_account: settings.unrealizedAccount,
  settlement_account: settings.settlementAccount,
  fair_value_account: settings.fairValueAccount,
  fee_account: settings.feeAccount,
  updated_at: settings.updatedAt
})

/** The accounts made when none is given: code, name, type, subtype (docs/crypto.md). */
const made: Record<Access.AccountField, { code: string; name: string; type: "asset" | "income" | "expense"; subtype: string }> = {
  settlementAccount: { code: "1480", name: "Digital assets", type: "asset", subtype: "digital_assets" },
  fairValueAccount: { code: "1485", name: "Digital assets fair value adjustment", type: "asset", subtype: "digital_assets" },
  realizedAccount: { code: "4880", name: "Realized gain or loss on digital assets", type: "income", subtype: "other_income" },
  unrealizedAccount: { code: "4885", name: "Unrealized gain or loss on digital assets", type: "income", subtype: "other_income" },
  feeAccount: { code: "6880", name: "Crypto network fees", type: "expense", subtype: "bank_charges" }
}

const bodyField: Record<Access.AccountField, keyof typeof Crypto.Settings.updateCryptoSettings.body.Type> = {
  realizedAccount: "realized_account",
  unrealizedAccount: "unrealized_account",
  settlementAccount: "settlement_account",
  fairValueAccount: "fair_value_account",
  feeAccount: "fee_account"
}

/**
 * Creates the account, or the first free code after it when the code is taken by another account.
 * Through the ledger's `addAccounts`, the one writer of `accounts`: under the chart's lock and its
 * size limit, like every other area's additions.
 */
const createAccount = Effect.fn("CryptoSettings.createAccount")(function*(company: string, field: Access.AccountField, now: string) {
  const spec = made[field]
  for (let offset = 0; offset < 100; offset++) {
    const code = String(Number(spec.code) + offset)
    const existing = yield* AccountStore.accountRow(company, code)
    if (existing !== undefined) {
      if (String(existing.name) === spec.name && existing.active === true) return code
      continue
    }
    const added = yield* addAccounts(company, [{ code, name: spec.name, type: spec.type, subtype: spec.subtype }], now)
    // Another writer took the code between the read and the lock: try the next one.
    if (added.length === 0) continue
    return code
  }
  return yield* Effect.die(new Error("no free account code for crypto"))
})

const update = Handler.make(Crypto.Settings.updateCryptoSettings, ({ body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const addon = yield* Access.hasAddon(company)
    if (!addon) return yield* Effect.fail(ApiError.fail("crypto_addon_required", "Crypto receipts need the crypto add-on (POST /v1/billing/crypto-addon)."))
    const before = yield* Access.load(company, true)
    const given = Object.entries(bodyField).flatMap(([field, key]) => typeof body[key] === "string" ? [{ field, code: body[key] as string }] : [])
    const found = yield* AccountStore.accountsByCode(company, given.map((entry) => entry.code))
    const issues: Array<{ path: Array<string>; message: string; type: "unknown_account" | "inactive_account" }> = []
    for (const { field, code } of given) {
      const account = found.get(code)
      const path = ["body", bodyField[field as Access.AccountField]]
      if (account === undefined) issues.push({ path, message: `No account ${code}.`, type: "unknown_account" })
      else if (!account.active) issues.push({ path, message: `Account ${code} is inactive.`, type: "inactive_account" })
    }
    const first = issues[0]
    if (first !== undefined) {
      return yield* Effect.fail(ApiError.fail(first.type, first.message, { issues: issues.map(({ path, message }) => ({ path, message })) }))
    }
    const next: Record<string, unknown> = {
      enabled: body.enabled ?? before.enabled,
      quote_minutes: body.quote_minutes ?? before.quoteMinutes,
      btc_confirmations: body.btc_confirmations ?? before.btcConfirmations,
      xmr_confirmations: body.xmr_confirmations ?? before.xmrConfirmations,
      remeasure: body.remeasure ?? before.remeasure,
      updated_at: request.now
    }
    for (const field of Object.keys(bodyField) as Array<Access.AccountField>) {
      const key = bodyField[field]
      const chosen = (body[key] as string | undefined) ?? before[field]
      next[key] = chosen ?? (next.enabled === true ? yield* createAccount(company, field, request.now) : null)
    }
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_settings ${sql.insert({ company_id: company, ...next })}
      ON CONFLICT (company_id) DO UPDATE SET ${sql.update(next)} RETURNING *`.pipe(Effect.orDie)
    const after = Access.settingsOf(rows[0])
    return { body: wire(after, addon), audit: { targetType: "crypto_settings", targetId: company, details: { changed: Object.keys(body) } } }
  }))

export const handlers = [
  Handler.make(Crypto.Settings.getCryptoSettings, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: wire(yield* Access.load(company), yield* Access.hasAddon(company)) }
    })),
  update
]
