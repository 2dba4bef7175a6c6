import { Effect } from "effect"
import { ApiError } from "@ledger/api"
import type { BankLineFacts } from "./Payments.ts"

/**
 * A payment may name the bank line it explains (`bank_line_id`): the line's account, date and
 * amount then fill the payment, the line becomes `proposed` while an agent's payment waits, and
 * `categorized` (linked to the entry) once it posts. The banking area owns bank lines and exposes
 * the functions this module calls (packages/engine/src/banking/BankLineLinks.ts); until that
 * module exists a payment with a bank line is refused rather than silently left unlinked.
 */
export const resolve = (_bankLineId: number, _direction: "received" | "made"): Effect.Effect<BankLineFacts, ApiError.LedgerError> =>
  Effect.fail(ApiError.validationFailed("Linking a payment to a bank line is not available yet.", [{
    path: ["body", "bank_line_id"],
    message: "Not available yet"
  }]))

/** The payment posted: the line is categorized and linked to its entry. */
export const linkPosted = (_bankLineId: number, _entryId: number): Effect.Effect<void, ApiError.LedgerError> => Effect.void

/** The payment is waiting for a person: the line is `proposed` until then. */
export const hold = (_bankLineId: number, _proposalId: number): Effect.Effect<void, ApiError.LedgerError> => Effect.void

/** The proposal was rejected: the line is `unmatched` again. */
export const release = (_bankLineId: number): Effect.Effect<void, ApiError.LedgerError> => Effect.void
