/** Estimated taxes (spec 3-endpoints-b 4.10). Its operations land here as they are built. */
export const operations = [] as const
