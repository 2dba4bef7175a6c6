/**
 * The receipts area's baseline: Receipts and the receipt inbox (spec 3-endpoints-b 4.1). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
