import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import { Entitlements } from "../billing/index.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"

/**
 * Who may change crypto, and whether it is on. Settings, wallets, acquisitions, disposals,
 * assignments and remeasurements are for the company's own owner or CPA (spec 4.11): the
 * operations are people-only (agents and AI apps are refused by the pipeline) and this refuses
 * firm members and the company's other roles. Everything but settings needs crypto switched on,
 * and switching it on needs the add-on (an owned installation always has it; docs/decisions/1500;
 * so does every company of a deployment without billing, ADR 2000).
 */

export const requireOwnerOrCpa = Effect.gen(function*() {
  const { actor } = yield* RequestContext
  if (actor.type === "user" && (actor.role === "owner" || actor.role === "cpa")) return
  return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only the company's own owner or CPA may do this.", { required: "owner_or_cpa" }))
})

export interface Settings {
  readonly enabled: boolean
  readonly quoteMinutes: number
  readonly btcConfirmations: number
  readonly xmrConfirmations: number
  readonly remeasure: boolean
  readonly realizedAccount: string | null
  readonly unrealizedAccount: string | null
  readonly settlementAccount: string | null
  readonly fairValueAccount: string | null
  readonly feeAccount: string | null
  readonly updatedAt: string | null
}

export const defaults: Settings = {
  enabled: false,
  quoteMinutes: Crypto.Limits.quoteMinutesDefault,
  btcConfirmations: Crypto.Limits.btcConfirmationsDefault,
  xmrConfirmations: Crypto.Limits.xmrConfirmationsDefault,
  remeasure: false,
  realizedAccount: null,
  unrealizedAccount: null,
  settlementAccount: null,
  fairValueAccount: null,
  feeAccount: null,
  updatedAt: null
}

const text = (value: unknown): string | null => value === null || value === undefined ? null : String(value)

export const settingsOf = (row: Record<string, unknown> | undefined): Settings => row === undefined ? defaults : {
  enabled: row.enabled === true,
  quoteMinutes: Row.int(row.quote_minutes),
  btcConfirmations: Row.int(row.btc_confirmations),
  xmrConfirmations: Row.int(row.xmr_confirmations),
  remeasure: row.remeasure === true,
  realizedAccount: text(row.realized_account),
  unrealizedAccount: text(row.unrealized_account),
  settlementAccount: text(row.settlement_account),
  fairValueAccount: text(row.fair_value_account),
  feeAccount: text(row.fee_account),
  updatedAt: row.updated_at === null || row.updated_at === undefined ? null : Row.iso(row.updated_at)
}

export const load = Effect.fn("CryptoAccess.load")(function*(company: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_settings WHERE company_id = ${company}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return settingsOf(rows[0])
})

export const hasAddon = Effect.fn("CryptoAccess.hasAddon")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ plan: string; crypto_addon: boolean }>`SELECT plan, crypto_addon FROM companies WHERE company_id = ${company}`
    .pipe(Effect.orDie)
  return yield* Entitlements.cryptoAddon({ plan: rows[0]?.plan, addon: rows[0]?.crypto_addon === true })
})

/** The settings of a company that has crypto on, its accounts all set; else 409 `crypto_not_enabled`. */
export const requireEnabled = Effect.gen(function*() {
  const company = yield* requireCompanyId
  const settings = yield* load(company)
  if (!settings.enabled) {
    return yield* Effect.fail(ApiError.fail("crypto_not_enabled", "Crypto receipts are off for this company: switch them on in POST /v1/crypto/settings."))
  }
  return { company, settings: settings as Settings & { readonly [K in AccountField]: string } }
})

export type AccountField = "realizedAccount" | "unrealizedAccount" | "settlementAccount" | "fairValueAccount" | "feeAccount"
