/** Financial reports: trial balance, profit and loss, balance sheet, general ledger. */
export const operations = [] as const
