/**
 * The mileage area's baseline: Mileage (spec 3-endpoints-b 4.9). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
