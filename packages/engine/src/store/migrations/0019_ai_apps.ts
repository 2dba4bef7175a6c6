/**
 * The ai-apps area's baseline (spec 3-endpoints-b 4.3, concepts 5.6, docs/ai-apps.md): OAuth
 * clients (dynamic registration), AI app connections with their level and caps, authorization
 * codes, and access and refresh tokens, all stored hashed. Clients are not a company's: an app
 * registers before anyone approves it anywhere.
 */
export const sql = `
CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  client_name text,
  redirect_uris jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE ai_connections (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  kind text NOT NULL CHECK (kind IN ('company', 'firm')),
  company_id uuid REFERENCES companies,
  firm_id bigint,
  client_id text NOT NULL REFERENCES oauth_clients,
  level text NOT NULL CHECK (level IN ('read', 'suggest', 'post')),
  per_entry_cap_cents bigint CHECK (per_entry_cap_cents >= 0),
  daily_cap_cents bigint CHECK (daily_cap_cents >= 0),
  account_codes jsonb,
  resource text NOT NULL,
  scope text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disconnected')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  level_changed_at timestamptz,
  disconnected_at timestamptz,
  disconnect_reason text,
  CHECK ((kind = 'company') = (company_id IS NOT NULL))
);
CREATE INDEX ai_connections_company ON ai_connections (company_id, id) WHERE company_id IS NOT NULL;
CREATE INDEX ai_connections_firm ON ai_connections (firm_id, id) WHERE firm_id IS NOT NULL;

-- The agent the app acts as in each company (one for a company connection, one per client for a firm's).
CREATE TABLE ai_connection_agents (
  connection_id bigint NOT NULL REFERENCES ai_connections,
  company_id uuid NOT NULL,
  agent_id bigint NOT NULL,
  PRIMARY KEY (connection_id, company_id),
  FOREIGN KEY (company_id, agent_id) REFERENCES agents (company_id, id)
);
CREATE INDEX ai_connection_agents_agent ON ai_connection_agents (company_id, agent_id);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  connection_id bigint NOT NULL REFERENCES ai_connections,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oauth_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  connection_id bigint NOT NULL REFERENCES ai_connections,
  family text NOT NULL,
  client_id text NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_tokens_connection ON oauth_tokens (connection_id);
CREATE INDEX oauth_tokens_family ON oauth_tokens (family);

-- What an agent posted today, for an AI app's daily cap (pipeline/authenticate/OAuthAccessToken.ts).
CREATE INDEX journal_entries_by_agent ON journal_entries (company_id, posted_by_id, posted_at) WHERE posted_by_type = 'agent';
`
