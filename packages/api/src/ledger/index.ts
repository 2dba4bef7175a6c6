/** The ledger area's operations, added to the catalog. */
export const operations = [] as const
