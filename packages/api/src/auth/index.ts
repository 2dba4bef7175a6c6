/** Sign-in and security (spec 3-endpoints-b 4.14). Its operations land here as they are built. */
export const operations = [] as const
