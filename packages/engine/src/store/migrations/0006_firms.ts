/**
 * The firms area's baseline: Firms and firm access (spec 2-endpoints-a 4.3). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
