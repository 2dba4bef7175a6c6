/** Migrations from other bookkeeping products (spec 3-endpoints-b 4.16). Its operations land here as they are built. */
export const operations = [] as const
