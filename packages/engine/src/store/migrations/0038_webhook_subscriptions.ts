/**
 * An endpoint may name every declared event type (issue 38 item 10, ADR 2010). The baseline
 * bounded `event_types` at 16 entries, spec 6.1's fifteen types and `*`; the areas now declare
 * more (payroll, mileage, estimated taxes, crypto), which an endpoint subscribing to all of them
 * by name needs room for. The bound is the contract's `Webhooks.Shared.subscriptionsMax` (64), with
 * room for areas to declare more without a migration; a test keeps the catalog under it.
 */
export const sql = `
ALTER TABLE webhook_endpoints
  DROP CONSTRAINT webhook_endpoints_event_types_check,
  ADD CONSTRAINT webhook_endpoints_event_types_check CHECK (cardinality(event_types) BETWEEN 1 AND 64);
`
