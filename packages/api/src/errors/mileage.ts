/**
 * The mileage area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  vehicle_account_taken: 409,
  vehicle_retired: 422,
  mileage_rate_unknown: 422,
  no_business_miles: 422,
  reimbursement_overlaps: 409
} as const
