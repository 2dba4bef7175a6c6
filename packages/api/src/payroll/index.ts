/** Payroll year to date (spec 3-endpoints-b 4.8). Its operations land here as they are built. */
export const operations = [] as const
