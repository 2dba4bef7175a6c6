/** The company profile (spec 3-endpoints-b 4.5). Its operations land here as they are built. */
export const operations = [] as const
