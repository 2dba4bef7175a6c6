/** Mileage (spec 3-endpoints-b 4.9). Its operations land here as they are built. */
export const operations = [] as const
