/**
 * The migrations area's baseline (spec 3-endpoints-b 4.16): connections to the desktop edition's
 * Web Connector and to the online edition, the raw data they stage, and the imports.
 *
 * Rules the database holds besides the engine:
 * - the connector password and the download token are stored as SHA-256 hashes only;
 * - a staged record is unique per connection, entity and source id: a resumed extraction that sends
 *   a page again replaces, never duplicates (ADR 1611);
 * - revoking a connection deletes its staged rows (the engine does it in the same transaction).
 */
export const sql = `
CREATE TABLE migration_connections (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  source text NOT NULL CHECK (source IN ('desktop', 'online')),
  status text NOT NULL,
  as_of date NOT NULL,
  include_tax_ids boolean NOT NULL DEFAULT false,
  password_hash text,
  download_token_hash text,
  failed_password_attempts int NOT NULL DEFAULT 0,
  ticket_hash text,
  last_error text,
  company_file text,
  state_hash text,
  consent_expires_at timestamptz,
  realm_id text,
  access_token_sealed text,
  progress jsonb NOT NULL DEFAULT '{}',
  estimate jsonb,
  extracted jsonb,
  tieout jsonb,
  expires_at timestamptz NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX migration_connections_ticket ON migration_connections (ticket_hash) WHERE ticket_hash IS NOT NULL;
CREATE UNIQUE INDEX migration_connections_state ON migration_connections (state_hash) WHERE state_hash IS NOT NULL;

CREATE TABLE migration_staged (
  company_id uuid NOT NULL,
  connection_id bigint NOT NULL,
  entity text NOT NULL,
  source_id text NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (company_id, connection_id, entity, source_id),
  FOREIGN KEY (company_id, connection_id) REFERENCES migration_connections (company_id, id)
);

CREATE TABLE migration_imports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  connection_id bigint NOT NULL,
  source text NOT NULL CHECK (source IN ('desktop', 'online')),
  status text NOT NULL CHECK (status IN ('imported', 'failed', 'cut_over')),
  result text NOT NULL CHECK (result IN ('PASS', 'FAIL')),
  entries int NOT NULL,
  differences jsonb NOT NULL DEFAULT '[]',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  cut_over_at timestamptz,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, connection_id) REFERENCES migration_connections (company_id, id)
);
CREATE UNIQUE INDEX migration_imports_one_pass ON migration_imports (company_id, connection_id) WHERE result = 'PASS';

CREATE TABLE migration_usage (
  month text PRIMARY KEY,
  reads int NOT NULL DEFAULT 0
);
`
