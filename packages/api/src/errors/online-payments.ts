/**
 * The online-payments area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  online_payments_not_configured: 503,
  processor_unavailable: 503,
  online_payments_state: 409,
  refund_exceeds_charge: 409,
  document_not_payable: 409,
  pay_link_expired: 409,
  partial_payment_not_allowed: 422,
  method_not_accepted: 422,
  invalid_signature: 400
} as const
