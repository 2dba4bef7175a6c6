/**
 * The webhooks area's baseline: Webhooks (spec 3-endpoints-b 4.15, concepts 6; ADRs 1100-1104).
 *
 * `webhook_endpoints` (foundation) gains its address, description and sealed signing secrets. The
 * new columns are nullable: a row without a `url` only keeps events in the outbox (tests write
 * such rows directly) and is never delivered to.
 *
 * Fan-out (ADR 1101): a row trigger on `outbox_events` turns each kept event into one
 * `webhook_deliveries` row per enabled endpoint that wants it, and one `webhook.deliver` job per
 * delivery, in the transaction of the change. The workers claim jobs with FOR UPDATE SKIP LOCKED,
 * so several server processes share the deliveries and each is sent by one of them. A delivery's
 * `token` names the job that may send it: a retry or a redelivery gives it a new token, and an
 * older job that finds another token does nothing.
 */
export const sql = `
ALTER TABLE webhook_endpoints
  ADD COLUMN url text CHECK (length(url) <= 2048),
  ADD COLUMN description text CHECK (length(description) <= 500),
  ADD COLUMN secret_sealed text,
  ADD COLUMN secret_prefix text,
  ADD COLUMN previous_secret_sealed text,
  ADD COLUMN previous_valid_until timestamptz,
  ADD COLUMN disabled_reason text CHECK (disabled_reason IN ('failing')),
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN created_at timestamptz,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN removed_at timestamptz;

CREATE TABLE webhook_deliveries (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  endpoint_id bigint NOT NULL,
  -- The outbox event's id (a test delivery's event has an id from the sequence and no outbox row).
  event_id bigint NOT NULL,
  event_type text NOT NULL,
  test boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'given_up')),
  attempts int NOT NULL DEFAULT 0,
  token bigint NOT NULL DEFAULT nextval('ledger_ids'),
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status int,
  error text CHECK (length(error) <= 1000),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, endpoint_id) REFERENCES webhook_endpoints
);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (company_id, endpoint_id, event_id) WHERE NOT test;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (company_id, endpoint_id, id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
CREATE INDEX outbox_events_by_type ON outbox_events (company_id, event_type, id);
CREATE INDEX outbox_events_occurred ON outbox_events (occurred_at);

-- A row trigger, not a statement trigger: the posting path's INSERT into outbox_events keeps no row
-- for a company without endpoints, and a row trigger then never runs.
CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH made AS (
    INSERT INTO webhook_deliveries (company_id, endpoint_id, event_id, event_type, next_attempt_at, created_at)
    SELECT NEW.company_id, w.id, NEW.id, NEW.event_type, NEW.occurred_at, NEW.occurred_at
    FROM webhook_endpoints w
    WHERE w.company_id = NEW.company_id AND w.enabled AND w.url IS NOT NULL AND w.removed_at IS NULL
      AND (NEW.event_type = ANY (w.event_types) OR '*' = ANY (w.event_types))
    RETURNING company_id, id, token, next_attempt_at
  )
  INSERT INTO jobs (kind, company_id, payload, run_at, max_attempts, created_at)
  SELECT 'webhook.deliver', made.company_id, jsonb_build_object('delivery_id', made.id, 'token', made.token),
    made.next_attempt_at, 3, made.next_attempt_at
  FROM made;
  RETURN NULL;
END $$;
CREATE TRIGGER outbox_events_fan_out AFTER INSERT ON outbox_events
  FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();
`
