/**
 * The foundation: companies, people, agents, keys, idempotency, audit and the outbox.
 *
 * Every tenant table leads with `company_id`, in its primary key and its indexes, so that tenants
 * stay apart and the database can later be distributed by company. Ids come from one sequence so
 * that every record id is unique across the deployment (DECISIONS.md).
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

-- Idempotency records are written in the same transaction as the change they guard; a concurrent
-- duplicate waits on the uncommitted row and then replays it. "tenant" is 'company:<uuid>',
-- 'firm:<id>' or 'operator'.
CREATE TABLE idempotency_records (
  tenant text NOT NULL,
  principal text NOT NULL,
  idempotency_key text NOT NULL,
  operation text NOT NULL,
  request_hash text NOT NULL,
  status int NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, principal, idempotency_key)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

CREATE TABLE audit_events (
  company_id uuid NOT NULL REFERENCES companies,
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
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

-- The audit log and the outbox are append-only.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'LD001';
END $$;
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
`
