/** Webhooks (spec 3-endpoints-b 4.15). Its operations land here as they are built. */
export const operations = [] as const
