/**
 * Events only for endpoints that want them (spec 6.2 rule 4; docs/decisions/0709-events-only-when-wanted.md).
 *
 * Every change wrote its event to `outbox_events`, though no endpoint could receive it: 314 of a
 * two-line posting's 1,353 bytes, kept for good (nothing prunes the outbox). The outbox now keeps
 * an event only while an enabled endpoint of its company subscribes to its type or to `*`.
 *
 * This migration creates only what that rule reads: an endpoint's company, id, event types and
 * whether it is enabled. The webhooks operations (spec 4.15; not built yet) add the address, the
 * description and the signing secrets beside them.
 */
export const sql = `
CREATE TABLE webhook_endpoints (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  -- Event types of spec 6.1, or '*' for all of them: at most the 15 types and '*'.
  event_types text[] NOT NULL CHECK (cardinality(event_types) BETWEEN 1 AND 16),
  enabled boolean NOT NULL DEFAULT true,
  PRIMARY KEY (company_id, id)
);
`
