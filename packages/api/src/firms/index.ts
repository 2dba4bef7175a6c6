/**
 * Firms (spec 4.3): accounting firms that keep the books of many companies. Its operations land
 * here as they are built; the area is wired through the catalog and the engine already.
 */
export const operations = [] as const
