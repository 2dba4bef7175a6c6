/**
 * The migrations area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {} as const
