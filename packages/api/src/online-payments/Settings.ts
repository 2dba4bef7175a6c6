import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { AccountCode } from "../sales/Shared.ts"

export const area = "4.12 Online payments"

/** The errors every operation of this group may add (spec 4.12: "All add 409 and 503"). */
export const groupErrors = ["online_payments_not_configured", "online_payments_state", "processor_unavailable"] as const

/** `{}`: an empty body that refuses any field (400), unlike a bare empty struct. */
export const NoFields = Schema.Struct({}).check(Schema.makeFilter((value: object) => Object.keys(value).length === 0 || "Expected an empty object {}"))

export const ProcessorAccountStatus = Schema.Literals(["not_connected", "onboarding", "active"])

export const Settings = Schema.Struct({
  enabled: Schema.Boolean,
  accept_card: Schema.Boolean,
  accept_ach: Schema.Boolean,
  accept_stablecoin: Schema.Boolean,
  allow_partial: Schema.Boolean,
  clearing_account: Schema.String,
  fees_account: Schema.String,
  refunds_account: Schema.String,
  chargebacks_account: Schema.String,
  payout_bank_account_id: Schema.NullOr(Id),
  provider: Schema.Literal("provider_a"),
  account_status: ProcessorAccountStatus,
  charges_enabled: Schema.Boolean,
  payouts_enabled: Schema.Boolean,
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "OnlinePaymentSettings" })
export type Settings = typeof Settings.Type

export const getOnlinePaymentSettings = Operation.make({
  id: "getOnlinePaymentSettings",
  method: "GET",
  path: "/v1/online-payments/settings",
  area,
  summary: "Online payment settings: methods accepted, partial payments, the accounts charges post to, and the processor account's state.",
  scope: "read",
  mode: "R",
  success: Settings,
  errors: [...groupErrors]
})

export const updateOnlinePaymentSettings = Operation.make({
  id: "updateOnlinePaymentSettings",
  method: "POST",
  path: "/v1/online-payments/settings",
  area,
  summary: "Change online payment settings. Accounts must exist and be active; the payout bank account must be a bank account.",
  description: "For the company's own owner or CPA; not an MCP tool.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  body: Schema.Struct({
    enabled: Schema.optionalKey(Schema.Boolean),
    accept_card: Schema.optionalKey(Schema.Boolean),
    accept_ach: Schema.optionalKey(Schema.Boolean),
    accept_stablecoin: Schema.optionalKey(Schema.Boolean),
    allow_partial: Schema.optionalKey(Schema.Boolean),
    clearing_account: Schema.optionalKey(AccountCode),
    fees_account: Schema.optionalKey(AccountCode),
    refunds_account: Schema.optionalKey(AccountCode),
    chargebacks_account: Schema.optionalKey(AccountCode),
    payout_bank_account_id: Schema.optionalKey(Schema.NullOr(Id))
  }),
  success: Settings,
  errors: [...groupErrors, "unknown_account", "inactive_account", "not_found", "step_up_required"]
})

export const startOnlinePaymentOnboarding = Operation.make({
  id: "startOnlinePaymentOnboarding",
  method: "POST",
  path: "/v1/online-payments/onboarding",
  area,
  summary: "A single-use hosted onboarding URL at the processor, valid a few minutes (the processor account is created on first use).",
  description: "For the company's own owner or CPA; not an MCP tool.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  body: NoFields,
  success: Schema.Struct({ url: Schema.String, expires_at: Timestamp, provider: Schema.Literal("provider_a") }),
  errors: [...groupErrors, "step_up_required"]
})

export const syncOnlinePayments = Operation.make({
  id: "syncOnlinePayments",
  method: "POST",
  path: "/v1/online-payments/sync",
  area,
  summary: "Ask the processor now: the account's state, pending charges and recent payouts (events missed are caught up; each books once).",
  description: "For the company's own owner or CPA; not an MCP tool.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  body: NoFields,
  success: Schema.Struct({ account_status: ProcessorAccountStatus, charges_updated: Schema.Int, payouts_recorded: Schema.Int, payouts_reconciled: Schema.Int }),
  errors: [...groupErrors]
})

export const operations = [getOnlinePaymentSettings, updateOnlinePaymentSettings, startOnlinePaymentOnboarding, syncOnlinePayments] as const
