import { Schema } from "effect"
import { Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import * as Limits from "./Limits.ts"
import { AccountCode, area, errors } from "./Shared.ts"

export const CryptoSettings = Schema.Struct({
  enabled: Schema.Boolean,
  addon: Schema.Boolean.annotate({ description: "Whether the company has the crypto add-on (owned installations always do)." }),
  quote_minutes: Schema.Int,
  btc_confirmations: Schema.Int,
  xmr_confirmations: Schema.Int,
  remeasure: Schema.Boolean,
  realized_account: Schema.NullOr(Schema.String),
  unrealized_account: Schema.NullOr(Schema.String),
  settlement_account: Schema.NullOr(Schema.String),
  fair_value_account: Schema.NullOr(Schema.String),
  fee_account: Schema.NullOr(Schema.String),
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "CryptoSettings" })
export type CryptoSettings = typeof CryptoSettings.Type

export const getCryptoSettings = Operation.make({
  id: "getCryptoSettings",
  method: "GET",
  path: "/v1/crypto/settings",
  area,
  summary: "Crypto receipts settings: on or off, quote validity, confirmations, remeasurement and the accounts used.",
  scope: "read",
  mode: "R",
  errors: [...errors],
  success: CryptoSettings
})

const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

export const updateCryptoSettings = Operation.make({
  id: "updateCryptoSettings",
  method: "POST",
  path: "/v1/crypto/settings",
  area,
  summary: "Switch crypto receipts on or off and set quote validity, confirmations, remeasurement and accounts.",
  description: "Accounts not given are created when crypto is first switched on. Needs the crypto add-on. " +
    "For the company's own owner or CPA; not an MCP tool.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  body: Schema.Struct({
    enabled: Schema.optionalKey(Schema.Boolean),
    quote_minutes: Schema.optionalKey(between(Limits.quoteMinutesMin, Limits.quoteMinutesMax)),
    btc_confirmations: Schema.optionalKey(between(Limits.btcConfirmationsMin, Limits.btcConfirmationsMax)),
    xmr_confirmations: Schema.optionalKey(between(Limits.xmrConfirmationsMin, Limits.xmrConfirmationsMax)),
    remeasure: Schema.optionalKey(Schema.Boolean),
    realized_account: Schema.optionalKey(AccountCode),
    unrealized_account: Schema.optionalKey(AccountCode),
    settlement_account: Schema.optionalKey(AccountCode),
    fair_value_account: Schema.optionalKey(AccountCode),
    fee_account: Schema.optionalKey(AccountCode)
  }),
  success: CryptoSettings,
  errors: [...errors, "crypto_addon_required", "unknown_account", "inactive_account"]
})

export const operations = [getCryptoSettings, updateCryptoSettings] as const
