/**
 * The crypto area's baseline: Crypto receipts (spec 3-endpoints-b 4.11). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
