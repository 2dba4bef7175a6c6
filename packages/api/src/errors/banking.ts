/**
 * The banking area's error types (bank accounts, imports, lines, rules, feeds, reconciliation),
 * each with the HTTP status it always travels with. `ApiError.errorStatus` folds every area's
 * table.
 */
export const errors = {
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
  bank_feeds_not_configured: 503
} as const
