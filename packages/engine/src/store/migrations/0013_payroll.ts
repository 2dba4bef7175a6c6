/**
 * The payroll area's baseline: Payroll year to date (spec 3-endpoints-b 4.8). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
