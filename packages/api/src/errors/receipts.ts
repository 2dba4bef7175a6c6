/**
 * The receipts area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  receipt_storage_not_configured: 503,
  receipt_storage_unavailable: 503,
  receipt_state: 409,
  message_state: 409,
  slug_unavailable: 409
} as const
