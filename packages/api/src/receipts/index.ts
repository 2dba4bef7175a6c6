/** Receipts and the receipt inbox (spec 3-endpoints-b 4.1). Its operations land here as they are built. */
export const operations = [] as const
