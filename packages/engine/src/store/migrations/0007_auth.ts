/**
 * The auth area's baseline: Sign-in and security (spec 3-endpoints-b 4.14). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
