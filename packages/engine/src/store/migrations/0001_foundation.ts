/**
 * The foundation baseline: the id sequence, the operator, companies, people, agents and their
 * keys, idempotency records, the audit log, the outbox and the webhook endpoints it serves, the
 * background job queue, and the checks a group commit's statement makes of what it recorded.
 *
 * Every tenant table leads with `company_id`, in its primary key and its indexes, so that tenants
 * stay apart and the database can later be distributed by company. Ids come from one sequence so
 * that every record id is unique across the deployment (DECISIONS.md).
 *
 * One of five baselines that replaced migrations 0001-0016 before anything was released (issue
 * 18): each table, index, trigger and function is made here once, in its final form. "(was 0009,
 * ADR 0708)" says which old migration last shaped a piece and which decision explains it; the
 * ADRs in docs/decisions/07xx still name the old numbers. The database these baselines make is
 * the one 0001-0016 made, compared by pg_dump, but for the names of two checks of journal_lines
 * (0002_ledger.ts says why). src/store/schema.sql is its dump; test/store/schema.test.ts checks it.
 */
export const sql = `
CREATE SEQUENCE ledger_ids START WITH 1000;

CREATE TABLE operator_credentials (
  id int PRIMARY KEY CHECK (id = 1),
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE companies (
  company_id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  plan text NOT NULL CHECK (plan IN ('solo', 'business', 'advanced', 'owned')),
  rate_limit_rpm int CHECK (rate_limit_rpm > 0),
  fiscal_year_start_month int NOT NULL DEFAULT 1 CHECK (fiscal_year_start_month BETWEEN 1 AND 12),
  kill_switch_suspended boolean NOT NULL DEFAULT false,
  kill_switch_reason text,
  kill_switch_changed_at timestamptz,
  starter_chart text NOT NULL CHECK (starter_chart IN ('general', 'services', 'retail', 'empty')),
  periods boolean NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE users (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  role text NOT NULL CHECK (role IN ('owner', 'cpa', 'accountant', 'staff')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

CREATE TABLE agents (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  scopes jsonb NOT NULL,
  posting_threshold_cents bigint NOT NULL CHECK (posting_threshold_cents >= 0),
  owner_user_id bigint,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  revoked_at timestamptz,
  revoked_reason text,
  ai_provider text,
  ai_provider_name text,
  ai_model_family text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, owner_user_id) REFERENCES users (company_id, id)
);

CREATE TABLE api_keys (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  principal_type text NOT NULL CHECK (principal_type IN ('user', 'agent')),
  user_id bigint,
  agent_id bigint,
  scopes jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  rate_limit_rpm int CHECK (rate_limit_rpm > 0),
  rotated_from_key_id bigint,
  rotated_to_key_id bigint,
  overlap_ends_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id),
  FOREIGN KEY (company_id, agent_id) REFERENCES agents (company_id, id),
  CHECK ((principal_type = 'user') = (user_id IS NOT NULL)),
  CHECK ((principal_type = 'agent') = (agent_id IS NOT NULL))
);
-- Authentication looks a key up by the hash of its secret, before the company is known.
CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys (secret_hash);

-- Idempotency records (was 0001, 0008 and 0009; ADRs 0005, 0706, 0708). A record is written in the
-- same transaction as the change it guards; a concurrent duplicate waits on the uncommitted row and
-- then replays it. It is keyed by one 16-byte scope:
--
-- - scope is the first 16 bytes of SHA-256 over tenant ('company:<uuid>', 'firm:<id>' or
--   'operator'), principal and key joined by newlines (no part can hold one: a key with a control
--   character is refused, spec 8.2), as a uuid: a fixed 16 bytes, compared as bytes, not as
--   collated text. Keyed by the three as text, in the row and again in its primary key, a record
--   took 531 of a posting's 1,651 bytes. ledger_idempotency_scope is its one definition; the
--   engine never computes it itself.
-- - request_hash is the first 16 bytes of the request's SHA-256 fingerprint, which covers the
--   operation: a key reused for another operation is a different hash (idempotency_conflict either
--   way), so the operation is not kept.
-- - There is no created_at: a record made now expires Limits.idempotencyRetentionDays later, and an
--   expired record is replaced by comparing expiries (Idempotency.replacingExpired).
-- - answer is the answer's JSON text packed by StoredAnswer.ts (a format byte, then the text
--   deflated against that format's dictionary: ADR 0706), since PostgreSQL does not compress a row
--   under about 2 KB whatever toast_tuple_target says (ADR 0703). body is the form before it, the
--   answer's JSON text as sent (json, not jsonb, so a replay is byte for byte the first answer: ADR
--   0703): the engine still reads it, though it writes only answer now. Exactly one of the two is
--   set.
--
-- STABLE, as convert_to is: PostgreSQL inlines a SQL function into the statement that calls it only
-- when the function is no less volatile than its body. Declared IMMUTABLE it ran as a function
-- call, planned afresh in every statement: about 40 µs more a lookup, and more per record of a
-- group commit.
CREATE FUNCTION ledger_idempotency_scope(tenant text, principal text, idempotency_key text) RETURNS uuid
  LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT encode(substring(sha256(convert_to(tenant || chr(10) || principal || chr(10) || idempotency_key, 'UTF8'))
    FROM 1 FOR 16), 'hex')::uuid
$$;

-- Fixed-width columns first, widest alignment first, so no byte of a row is padding.
CREATE TABLE idempotency_records (
  scope uuid PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  status int NOT NULL,
  request_hash bytea NOT NULL CHECK (length(request_hash) = 16),
  answer bytea,
  body json,
  CONSTRAINT idempotency_records_one_answer CHECK ((body IS NULL) <> (answer IS NULL))
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

-- A group commit's statement ends by counting the idempotency records it wrote: fewer than its
-- requests means a key was taken meanwhile, and the whole statement, one transaction, is refused
-- (was 0007, ADR 0705).
CREATE FUNCTION ledger_batch_recorded(recorded bigint, expected bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF recorded <> expected THEN
    RAISE EXCEPTION 'a group commit recorded % of its % idempotency keys', recorded, expected USING ERRCODE = 'LD020';
  END IF;
  RETURN recorded;
END $$;

-- A group commit's statement refuses itself when something it relied on without reading it has
-- changed (was 0015, ADR 0713). ledger_batch_found(counted, expected, state, what) passes counted
-- through when it equals expected, else raises state: nothing of the batch is kept and its
-- requests take their usual path, which reads afresh. LD022 is the API keys a batch's requests
-- were authenticated with from the pipeline's memory: every one of them must still be in the
-- state it was remembered in. (LD020 above and LD021, ledger_batch_charts_current in the ledger's
-- baseline, came first and keep their own functions.)
-- Not "found": PL/pgSQL's own FOUND would shadow it.
CREATE FUNCTION ledger_batch_found(counted bigint, expected bigint, state text, what text) RETURNS bigint
  LANGUAGE plpgsql AS $$
BEGIN
  IF counted <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % % as it used them', counted, expected, what USING ERRCODE = state;
  END IF;
  RETURN counted;
END $$;

-- The audit log and the outbox have no foreign key to companies (was 0006, ADR 0703): every
-- posting referenced the same company row from three tables, and each check is a query of its own
-- that locks the referenced row FOR KEY SHARE, so concurrent postings queued on that row's lock
-- and wrote multixacts for it. Audit and outbox rows are only written by the engine, for the
-- company of the request, and companies are never deleted.
CREATE TABLE audit_events (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  occurred_at timestamptz NOT NULL,
  action text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'refused')),
  status int NOT NULL,
  error_type text,
  principal_type text NOT NULL,
  principal_id text,
  principal_name text,
  key_id bigint,
  agent_model text,
  agent_run_id text,
  target_type text,
  target_id text,
  reason text,
  via text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (company_id, id)
);

CREATE TABLE outbox_events (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

-- The audit log is append-only; so are posted entries and lines (the ledger's baseline).
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'LD001';
END $$;
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

-- Events only for endpoints that want them (was 0010; spec 6.2 rule 4, ADR 0709). Every change
-- wrote its event to outbox_events, though no endpoint could receive it: 314 of a two-line
-- posting's 1,353 bytes, kept for good (nothing prunes the outbox). The outbox now keeps an event
-- only while an enabled endpoint of its company subscribes to its type or to '*'. This table holds
-- only what that rule reads; the webhooks operations (spec 4.15, not built yet) add the address,
-- the description and the signing secrets beside them.
CREATE TABLE webhook_endpoints (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  -- Event types of spec 6.1, or '*' for all of them: at most the 15 types and '*'.
  event_types text[] NOT NULL CHECK (cardinality(event_types) BETWEEN 1 AND 16),
  enabled boolean NOT NULL DEFAULT true,
  PRIMARY KEY (company_id, id)
);

-- Background jobs, shared by every server replica (was 0003, ADR 0305): a worker claims due jobs
-- with FOR UPDATE SKIP LOCKED and holds a lease (locked_until); a job whose worker died is claimed
-- again once its lease runs out. unique_key keeps at most one live job per key (a periodic scan).
CREATE TABLE jobs (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  kind text NOT NULL,
  company_id uuid,
  payload jsonb NOT NULL DEFAULT '{}',
  unique_key text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  run_at timestamptz NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  max_attempts int NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE status IN ('pending', 'running');
CREATE UNIQUE INDEX jobs_unique_live ON jobs (unique_key) WHERE unique_key IS NOT NULL AND status IN ('pending', 'running');
`
