import { Schema } from "effect"
import { errorIssuesMax } from "./Limits.ts"

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
  agent_model_required: 400,
  kill_switch_active: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  conflict: 409,
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
  // ledger area (accounts, periods, entries, proposals, reports)
  single_line_entry: 422,
  zero_amount_line: 422,
  two_sided_line: 422,
  unknown_class: 422,
  unknown_contact: 422,
  invalid_period_transition: 422,
  entry_already_reversed: 409,
  entry_not_reversible: 409,
  // sales area (contacts, items, documents, payments, estimates, recurring, tax, email)
  document_has_applications: 409,
  already_void: 409,
  number_in_use: 409,
  invalid_transition: 409,
  over_application: 422,
  inactive_tax_rate: 422,
  // banking area (bank accounts, imports, lines, rules, feeds, reconciliation)
  statement_unreadable: 422,
  statement_account_ambiguous: 422,
  bank_line_state: 409,
  entry_not_matchable: 422,
  bank_line_reconciled: 409,
  reconciliation_in_progress: 409,
  reconciliation_not_balanced: 422,
  reconciliation_closed: 409,
  reconciliation_not_latest: 409,
  feed_account_limit: 422,
  bank_feeds_not_configured: 503,
  // firms area
  last_firm_admin: 422,
  firm_access_required: 422,
  firm_access_revoked: 409,
  invitation_claimed: 409,
  firm_kill_switch_active: 403,
  // auth area
  step_up_required: 403,
  sign_in_refused: 401,
  second_factor_refused: 401,
  passkey_refused: 401,
  last_second_factor: 409,
  authenticator_apps_not_configured: 503,
  // webhooks area
  webhook_limit_reached: 422,
  webhook_url_not_allowed: 422,
  webhook_not_redeliverable: 409,
  webhook_endpoint_disabled: 409,
  webhooks_not_configured: 503,
  // receipts area
  receipt_storage_not_configured: 503,
  receipt_state: 409,
  message_state: 409,
  slug_unavailable: 409,
  // profile area
  logo_refused: 422,
  // tax area
  tax_return_type_required: 422,
  unknown_tax_line: 422,
  tax_accounts_unmapped: 422,
  tax_export_not_tied: 422,
  // taxforms area
  payer_not_set: 422,
  tin_required: 422,
  not_a_vendor: 422,
  tax_profile_missing: 422,
  w9_request_closed: 409,
  prior_amount_voided: 409,
  filing_not_pending: 409,
  filing_preview_mismatch: 409,
  filing_not_retryable: 409,
  filing_not_submitted: 409,
  nothing_to_file: 422,
  tax_filing_not_configured: 503,
  tax_filing_failed: 502,
  tin_sealing_not_configured: 503,
  // payroll area
  payroll_csv_invalid: 422,
  payroll_totals_mismatch: 422,
  payroll_import_exists: 409,
  payroll_summary_exists: 409,
  wages_already_recorded: 422,
  // mileage area
  vehicle_account_taken: 409,
  vehicle_retired: 422,
  mileage_rate_unknown: 422,
  no_business_miles: 422,
  reimbursement_overlaps: 409,
  // estimated-taxes area
  tax_year_unsupported: 422,
  payment_account_required: 422,
  // crypto area
  crypto_secret_refused: 422,
  crypto_key_invalid: 422,
  crypto_addon_required: 409,
  crypto_not_enabled: 409,
  crypto_wallet_archived: 409,
  crypto_gap_limit_reached: 409,
  crypto_insufficient_lots: 422,
  crypto_receipt_state: 409,
  crypto_quote_state: 409,
  crypto_valuation_state: 409,
  crypto_remeasurement_exists: 409,
  crypto_remeasure_off: 409,
  crypto_price_unavailable: 503,
  crypto_chain_not_configured: 503,
  crypto_sealer_not_configured: 503,
  // integrations area
  integration_not_available: 422,
  integration_provider_not_configured: 503,
  integration_consent_invalid: 422,
  integration_consent_denied: 422,
  integration_disconnected: 409,
  integration_paused: 409,
  integration_mapping_incomplete: 422,
  // migrations area
  // ai-apps area
  invalid_client: 400,
  invalid_redirect_uri: 400,
  invalid_code_challenge: 400,
  equity_account_refused: 422,
  connection_ended: 409,
  // ai-consent area
  consent_not_pending: 409,
  consent_not_signed: 409,
  consent_invalid_pdf: 422,
  consent_not_owner: 403,
  consent_required: 403,
  // online-payments area
  online_payments_not_configured: 503,
  processor_unavailable: 503,
  online_payments_state: 409,
  refund_exceeds_charge: 409,
  document_not_payable: 409,
  pay_link_expired: 409,
  partial_payment_not_allowed: 422,
  method_not_accepted: 422,
  invalid_signature: 400,
  // billing area
  billing_not_configured: 503,
  billing_state: 409,
  billing_no_subscription: 409,
  books_read_only: 409,
  migration_consent_invalid: 422,
  download_token_invalid: 403,
  migration_connection_revoked: 409,
  migration_connection_not_locked: 409,
  bundle_not_ready: 409,
  tieout_failed: 422,
  books_not_empty: 409,
  migration_already_imported: 409,
  migration_not_passed: 422,
  migration_already_cut_over: 409,
  migration_not_authorized: 409,
  migration_estimate_required: 409,
  budget_exceeded: 422,
  online_migration_not_configured: 503,
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

