/**
 * The tax area's baseline: Tax returns: mapping and export (spec 3-endpoints-b 4.6). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
