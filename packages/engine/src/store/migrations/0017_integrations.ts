/**
 * The integrations area's baseline (spec 3-endpoints-b 4.2): connections to outside providers,
 * their mappings, sync runs and the objects synced.
 *
 * Rules the database holds besides the engine:
 * - a consent state is stored as its SHA-256 only, and is unique while a connection waits on it;
 * - a synced object is unique per company, provider, provider account and provider id: reconnecting
 *   the same account finds the objects it already synced, so nothing posts twice (ADR 1602);
 * - an access token is stored sealed (TokenSealer), and deleted on disconnect.
 */
export const sql = `
CREATE TABLE integration_connections (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  provider text NOT NULL CHECK (provider ~ '^provider_[a-z]$'),
  status text NOT NULL CHECK (status IN ('pending', 'connected', 'paused', 'disconnected')),
  state_hash text,
  code_verifier text,
  consent_expires_at timestamptz,
  external_account_id text,
  account_name text,
  access_token_sealed text,
  agent_id bigint,
  clearing_account text,
  payout_account text,
  posting_threshold_cents bigint NOT NULL DEFAULT 0 CHECK (posting_threshold_cents >= 0),
  mapping_approved_at timestamptz,
  mapping_approved_by text,
  mapping_note text,
  sync_cursor text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  disconnected_at timestamptz,
  disconnect_reason text,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX integration_connections_state ON integration_connections (state_hash) WHERE state_hash IS NOT NULL;

CREATE TABLE integration_mappings (
  company_id uuid NOT NULL,
  connection_id bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('category', 'product', 'discount', 'shipping', 'tax', 'tip', 'fee', 'refund', 'payout')),
  source_key text NOT NULL CHECK (length(source_key) BETWEEN 1 AND 200),
  account_code text,
  class_name text,
  project_name text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, connection_id, kind, source_key),
  FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections (company_id, id)
);

CREATE TABLE integration_sync_runs (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  connection_id bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  trigger text NOT NULL CHECK (trigger IN ('request', 'schedule')),
  counts jsonb NOT NULL,
  errors jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections (company_id, id)
);
CREATE INDEX integration_sync_runs_connection ON integration_sync_runs (company_id, connection_id, id DESC);

CREATE TABLE integration_objects (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  connection_id bigint NOT NULL,
  provider text NOT NULL,
  external_account_id text NOT NULL,
  external_id text NOT NULL,
  type text NOT NULL,
  version text NOT NULL,
  date date NOT NULL,
  total_cents bigint NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('posted', 'proposed', 'pending', 'needs_review', 'skipped', 'rejected')),
  entry_id bigint,
  proposal_id bigint,
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, provider, external_account_id, external_id),
  FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections (company_id, id)
);
CREATE INDEX integration_objects_status ON integration_objects (company_id, connection_id, status, id DESC);
`
