/**
 * The taxforms area's baseline: Information returns, 1099 forms (spec 3-endpoints-b 4.7). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
