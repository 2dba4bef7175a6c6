/**
 * The profile area's baseline: The company profile (spec 3-endpoints-b 4.5). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
