/**
 * The webhooks area's baseline: Webhooks (spec 3-endpoints-b 4.15). Empty until the area's tables land (the migrator
 * skips and does not record a migration without SQL).
 */
export const sql = `
`
