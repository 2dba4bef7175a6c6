/**
 * The crypto area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
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
  crypto_sealer_not_configured: 503
} as const
