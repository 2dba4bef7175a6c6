/**
 * The company audit log is hash-chained in the database itself (issue 41 item 5,
 * docs/decisions/2310-company-audit-hash-chain.md), as the firm log is (ADR 0901), so that a
 * direct edit of an event (by a superuser, who can turn the append-only trigger off) is found by
 * `GET /v1/audit/verify`.
 *
 * - `audit_events` gains `seq` (1, 2, 3... per company, without gaps), `prev_hash` and `hash`.
 * - `audit_chain_heads` keeps each company's head (its last seq and hash). A BEFORE INSERT trigger
 *   on `audit_events` locks the company's head row, numbers the event, hashes it and advances the
 *   head: every insert path is chained, the engine's (one event, the group commit's batch of
 *   many, the pipeline's refusals) and any direct INSERT by the application role alike, and the
 *   values an INSERT gives for the three columns are overwritten. Concurrent inserts of one
 *   company wait for each other's commit on the head row, so the chain follows commit order.
 * - `hash = sha256(canonical text)`, the canonical text being a version tag and every column in a
 *   fixed order, `prev_hash` first, each as `<bytes>:<text>` (NULL as `~`): timestamps as epoch
 *   microseconds (no time zone or date style enters it), `details` as `jsonb::text` (jsonb's
 *   own canonical form). The verifier builds the same text in TypeScript from the columns read
 *   as text, so it trusts no function a superuser could replace.
 * - The head table is written by that trigger alone (refused at trigger depth 1, as the totals
 *   are: migration 0032), and never truncated.
 * - Existing events are chained here, per company in id order.
 */
export const sql = `
ALTER TABLE audit_events ADD COLUMN seq bigint, ADD COLUMN prev_hash text, ADD COLUMN hash text;

-- prev_hash: the hash before the last, so that one UPDATE both advances the head and tells the
-- trigger what the new event links to (RETURNING gives only new values).
CREATE TABLE audit_chain_heads (
  company_id uuid PRIMARY KEY,
  seq bigint NOT NULL CHECK (seq >= 0),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  prev_hash text NOT NULL
);

-- One field of the canonical text: its length in bytes, a colon and the text; NULL is '~'.
CREATE FUNCTION ledger_audit_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$$;

-- The event's hash over its canonical text (packages/engine/src/administration/AuditChain.ts builds
-- the same), with the given seq and prev_hash in place of the row's: the trigger hashes the event
-- before those are set.
-- PL/pgSQL, not SQL: its expression is planned once a session, where a SQL function taking a row
-- is not inlined and cost four times as much an event (220 against 59 µs on PostgreSQL 15).
CREATE FUNCTION ledger_audit_hash(e audit_events, seq bigint, prev_hash text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN encode(sha256(convert_to('ledger.audit.v1'
    || ledger_audit_field(prev_hash)
    || ledger_audit_field(e.company_id::text)
    || ledger_audit_field(seq::text)
    || ledger_audit_field(e.id::text)
    || ledger_audit_field(((extract(epoch FROM e.occurred_at) * 1000000)::bigint)::text)
    || ledger_audit_field(e.action)
    || ledger_audit_field(e.outcome)
    || ledger_audit_field(e.status::text)
    || ledger_audit_field(e.error_type)
    || ledger_audit_field(e.principal_type)
    || ledger_audit_field(e.principal_id)
    || ledger_audit_field(e.principal_name)
    || ledger_audit_field(e.key_id::text)
    || ledger_audit_field(e.agent_model)
    || ledger_audit_field(e.agent_run_id)
    || ledger_audit_field(e.target_type)
    || ledger_audit_field(e.target_id)
    || ledger_audit_field(e.reason)
    || ledger_audit_field(e.via)
    || ledger_audit_field(e.details::text), 'UTF8')), 'hex');
END $$;

-- The existing events, per company in id order (the append-only trigger is off for this alone).
ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only;
DO $$
DECLARE
  event audit_events;
  company uuid := NULL;
  next_seq bigint := 0;
  previous text := repeat('0', 64);
BEGIN
  FOR event IN SELECT * FROM audit_events ORDER BY company_id, id LOOP
    IF company IS DISTINCT FROM event.company_id THEN
      company := event.company_id;
      next_seq := 0;
      previous := repeat('0', 64);
    END IF;
    next_seq := next_seq + 1;
    UPDATE audit_events SET seq = next_seq, prev_hash = previous, hash = ledger_audit_hash(event, next_seq, previous)
      WHERE company_id = event.company_id AND id = event.id
      RETURNING hash INTO previous;
  END LOOP;
END $$;
ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only;

INSERT INTO audit_chain_heads (company_id, seq, hash, prev_hash)
  SELECT DISTINCT ON (company_id) company_id, seq, hash, prev_hash FROM audit_events ORDER BY company_id, seq DESC;

ALTER TABLE audit_events ALTER COLUMN seq SET NOT NULL, ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL;
-- The verifier's walk, and one event per seq.
CREATE UNIQUE INDEX audit_events_chain ON audit_events (company_id, seq);

-- Numbers, links and hashes each new event, and advances its company's head, in one UPDATE (its
-- SET sees the head before it: the new event's seq and link). The UPDATE's row lock holds the head
-- until the inserting transaction ends: the company's next event follows this one, and a
-- concurrent one waits and is then computed from the head this one left.
CREATE FUNCTION ledger_audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE audit_chain_heads h SET seq = h.seq + 1, prev_hash = h.hash, hash = ledger_audit_hash(NEW, h.seq + 1, h.hash)
    WHERE h.company_id = NEW.company_id
    RETURNING h.seq, h.prev_hash, h.hash INTO NEW.seq, NEW.prev_hash, NEW.hash;
  IF NOT FOUND THEN
    -- The company's first event: a concurrent first event waits here for the other's commit.
    INSERT INTO audit_chain_heads (company_id, seq, hash, prev_hash) VALUES (NEW.company_id, 0, repeat('0', 64), repeat('0', 64))
      ON CONFLICT DO NOTHING;
    UPDATE audit_chain_heads h SET seq = h.seq + 1, prev_hash = h.hash, hash = ledger_audit_hash(NEW, h.seq + 1, h.hash)
      WHERE h.company_id = NEW.company_id
      RETURNING h.seq, h.prev_hash, h.hash INTO NEW.seq, NEW.prev_hash, NEW.hash;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_events_chained BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ledger_audit_chain();

-- The heads move only with their events (trigger depth 2: inside ledger_audit_chain).
CREATE FUNCTION ledger_refuse_direct_audit_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '% is kept by the audit log''s trigger alone', TG_TABLE_NAME USING ERRCODE = 'LD001';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER audit_chain_heads_kept BEFORE INSERT OR UPDATE OR DELETE ON audit_chain_heads
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_audit_heads();
CREATE TRIGGER audit_chain_heads_no_truncate BEFORE TRUNCATE ON audit_chain_heads
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
`
