/** Information returns, 1099 forms (spec 3-endpoints-b 4.7). Its operations land here as they are built. */
export const operations = [] as const
