/**
 * The migrations area's baseline: Migrations from other bookkeeping products (spec 3-endpoints-b 4.16). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
