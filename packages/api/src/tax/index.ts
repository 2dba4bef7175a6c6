/** Tax returns: mapping and export (spec 3-endpoints-b 4.6). Its operations land here as they are built. */
export const operations = [] as const
