import { Schema } from "effect"
import { errorIssuesMax } from "./Limits.ts"
import { errors as ledgerErrors } from "./errors/ledger.ts"
import { errors as salesErrors } from "./errors/sales.ts"
import { errors as bankingErrors } from "./errors/banking.ts"
import { errors as firmsErrors } from "./errors/firms.ts"
import { errors as authErrors } from "./errors/auth.ts"
import { errors as webhooksErrors } from "./errors/webhooks.ts"
import { errors as receiptsErrors } from "./errors/receipts.ts"
import { errors as profileErrors } from "./errors/profile.ts"
import { errors as taxErrors } from "./errors/tax.ts"
import { errors as taxformsErrors } from "./errors/taxforms.ts"
import { errors as payrollErrors } from "./errors/payroll.ts"
import { errors as mileageErrors } from "./errors/mileage.ts"
import { errors as estimatedTaxesErrors } from "./errors/estimated-taxes.ts"
import { errors as cryptoErrors } from "./errors/crypto.ts"
import { errors as integrationsErrors } from "./errors/integrations.ts"
import { errors as migrationsErrors } from "./errors/migrations.ts"
import { errors as aiAppsErrors } from "./errors/ai-apps.ts"
import { errors as aiConsentErrors } from "./errors/ai-consent.ts"
import { errors as onlinePaymentsErrors } from "./errors/online-payments.ts"
import { errors as billingErrors } from "./errors/billing.ts"

/**
 * Every stable `error.type` Ledger answers with, and the HTTP status it always travels with.
 * Clients narrow on `type`; the status is a convenience for HTTP tooling. A type never changes
 * status, so a client may rely on either.
 */
export const errorStatus = {
  invalid_request: 400,
  idempotency_key_required: 400,
  invalid_idempotency_key: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  // A valid firm credential on a company operation without X-Ledger-Company (DECISIONS).
  company_required: 400,
  // An API key on an operation for a person signed in (Operation.signedIn; DECISIONS).
  session_required: 403,
  agent_model_required: 400,
  kill_switch_active: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  conflict: 409,
  // A request body that did not arrive within its deadline (the server's, not the engine's).
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  account_protected: 422,
  chart_not_empty: 422,
  period_locked: 422,
  period_hard_locked: 422,
  soft_lock_reason_required: 422,
  unbalanced_entry: 422,
  unknown_account: 422,
  inactive_account: 422,
  period_not_found: 422,
  proposal_not_pending: 409,
  self_approval_refused: 403,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  // Each area declares its own in errors/<area>.ts (a folder of leaves, so no area imports back).
  ...ledgerErrors,
  ...salesErrors,
  ...bankingErrors,
  ...firmsErrors,
  ...authErrors,
  ...webhooksErrors,
  ...receiptsErrors,
  ...profileErrors,
  ...taxErrors,
  ...taxformsErrors,
  ...payrollErrors,
  ...mileageErrors,
  ...estimatedTaxesErrors,
  ...cryptoErrors,
  ...integrationsErrors,
  ...migrationsErrors,
  ...aiAppsErrors,
  ...aiConsentErrors,
  ...onlinePaymentsErrors,
  ...billingErrors,
} as const

export type ErrorType = keyof typeof errorStatus
export const errorTypes = Object.keys(errorStatus) as ReadonlyArray<ErrorType>

export const Issue = Schema.Struct({
  path: Schema.Array(Schema.Union([Schema.String, Schema.Int])),
  message: Schema.String
})
export type Issue = typeof Issue.Type

/** The wire body of every refusal (DECISIONS.md, spec 7). */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    type: Schema.String,
    message: Schema.String,
    details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
  })
}).annotate({ identifier: "Error", description: "A refusal: a stable `type`, a message for people, details." })
export type ErrorBody = typeof ErrorBody.Type

/**
 * The one failure every operation may end in. Handlers fail with it; HTTP and MCP render it as
 * the same `ErrorBody`.
 */
export class LedgerError extends Schema.TaggedError<LedgerError>()("LedgerError", {
  type: Schema.String,
  message: Schema.String,
  details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}) {
  get status(): number {
    return (errorStatus as Record<string, number>)[this.type] ?? 400
  }
  toBody(): ErrorBody {
    return {
      error: this.details === undefined
        ? { type: this.type, message: this.message }
        : { type: this.type, message: this.message, details: this.details }
    }
  }
}

export const fail = (type: ErrorType, message: string, details?: Record<string, unknown>): LedgerError =>
  details === undefined ? new LedgerError({ type, message }) : new LedgerError({ type, message, details })

export const notFound = (what = "record"): LedgerError => fail("not_found", `No such ${what}.`)

/**
 * A refusal lists at most `Limits.errorIssuesMax` issues, and how many there were: a body of
 * 60,000 bad items once answered 9 MB of issues, which helps no one and costs the server.
 */
export const invalidRequest = (issues: ReadonlyArray<Issue>, message = "The request is not valid."): LedgerError =>
  fail("invalid_request", message, issuesDetails(issues))

export const validationFailed = (message: string, issues: ReadonlyArray<Issue> = []): LedgerError =>
  fail("validation_failed", message, issuesDetails(issues))

const issuesDetails = (issues: ReadonlyArray<Issue>): Record<string, unknown> =>
  issues.length > errorIssuesMax ? { issues: issues.slice(0, errorIssuesMax), issues_total: issues.length } : { issues }

