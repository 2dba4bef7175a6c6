/** The ledger (accounts, periods, journal entries, proposals, daily balances) tables. */
export const sql = ``
