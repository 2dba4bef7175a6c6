import { Schema } from "effect"
import { DateString, Id, Reason } from "../Common.ts"
import * as Limits from "./Limits.ts"

export const area = "4.11 Crypto receipts"

/** Every crypto operation may also answer 409, 422 and 503 (spec 4.11). */
export const errors = ["conflict", "validation_failed", "service_unavailable", "crypto_not_enabled"] as const

export const rails = ["btc", "xmr", "usdc_base", "usdc_ethereum", "usdc_solana", "usdt_ethereum", "usdt_tron"] as const
export const Rail = Schema.Literals(rails)
export type Rail = typeof Rail.Type

export const assets = ["BTC", "XMR", "USDC", "USDT"] as const
export const Asset = Schema.Literals(assets).annotate({ description: "The crypto asset." })
export type Asset = typeof Asset.Type

export const LotMethod = Schema.Literals(["fifo", "specific"])
export type LotMethod = typeof LotMethod.Type

/** An account code, as the ledger names accounts on the wire. */
export const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))

const decimal = new RegExp(`^\\d{1,${Limits.decimalIntegerDigitsMax}}(\\.\\d{1,${Limits.decimalPlacesMax}})?$`, "u")

/** A crypto quantity in whole units as a decimal string ("0.015"): never a float (spec 1). */
export const Quantity = Schema.String.check(Schema.isPattern(decimal))
  .annotate({ description: "A quantity of the asset in whole units, as a decimal string, e.g. \"0.015\"." })

/** A price in US dollars per whole unit, as a decimal string ("64250.12"). */
export const Price = Schema.String.check(Schema.isPattern(decimal))
  .annotate({ description: "US dollars per whole unit, as a decimal string, e.g. \"64250.12\"." })

/** An amount in the asset's smallest unit (satoshi, piconero, token base unit), as an integer string. */
export const Units = Schema.String.check(Schema.isPattern(/^\d{1,40}$/u))
  .annotate({ description: "An amount in the asset's smallest unit (satoshi, piconero, 10^-6 token), as an integer string." })

/** A timestamp, or a date meaning the end of that day in UTC (spec 1). */
export const Moment = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/u)
).annotate({ description: "An ISO 8601 timestamp, or a date YYYY-MM-DD meaning the end of that day in UTC." })

export const IdPath = Schema.Struct({ id: Id })
export const DateRange = { from: DateString, to: DateString }

/**
 * A posting dated in a soft-locked period needs a reason, as the ledger's own writes take it
 * (`soft_lock_override_reason`, spec 1-concepts 2.4); without one the write answers 422
 * `soft_lock_reason_required`. The reason is kept on the entry.
 */
export const SoftLockOverrideReason = Schema.optionalKey(
  Reason.annotate({ description: "Why this posting may go into a soft-locked period; required when the date is in one." })
)
