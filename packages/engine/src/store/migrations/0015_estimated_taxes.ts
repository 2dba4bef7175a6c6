/**
 * The estimated-taxes area's baseline: Estimated taxes (spec 3-endpoints-b 4.10). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
