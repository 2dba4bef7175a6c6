/**
 * The firms area's baseline: Firms and firm access (spec 2-endpoints-a 4.3, concepts 5.4).
 *
 * Firm-level tables lead with `firm_id`; the tables that live inside a client (grants, agent
 * assignments, owner invitations) lead with `company_id` like every tenant table, so a client's
 * rows stay with the client. `firm_audit_events` is the firm's own log, hash-chained
 * (docs/decisions/0901-firm-audit-hash-chain.md) and append-only like the company log.
 */
export const sql = `
CREATE TABLE firms (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  rate_limit_rpm int CHECK (rate_limit_rpm > 0),
  kill_switch_suspended boolean NOT NULL DEFAULT false,
  kill_switch_reason text,
  kill_switch_changed_at timestamptz,
  audit_seq bigint NOT NULL DEFAULT 0,
  audit_head text NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
  created_at timestamptz NOT NULL
);

CREATE TABLE firm_members (
  firm_id bigint NOT NULL REFERENCES firms,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email text CHECK (length(email) <= 320),
  role text NOT NULL CHECK (role IN ('admin', 'cpa', 'bookkeeper')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed')),
  removed_at timestamptz,
  removed_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (firm_id, id),
  CHECK ((status = 'removed') = (removed_at IS NOT NULL))
);

CREATE TABLE firm_agents (
  firm_id bigint NOT NULL REFERENCES firms,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  scopes jsonb NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  revoked_at timestamptz,
  revoked_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (firm_id, id)
);

CREATE TABLE firm_keys (
  firm_id bigint NOT NULL REFERENCES firms,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  principal_type text NOT NULL CHECK (principal_type IN ('member', 'agent')),
  member_id bigint,
  firm_agent_id bigint,
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
  PRIMARY KEY (firm_id, id),
  FOREIGN KEY (firm_id, member_id) REFERENCES firm_members (firm_id, id),
  FOREIGN KEY (firm_id, firm_agent_id) REFERENCES firm_agents (firm_id, id),
  CHECK ((principal_type = 'member') = (member_id IS NOT NULL)),
  CHECK ((principal_type = 'agent') = (firm_agent_id IS NOT NULL))
);
CREATE UNIQUE INDEX firm_keys_secret_hash ON firm_keys (secret_hash);

CREATE TABLE firm_sessions (
  firm_id bigint NOT NULL REFERENCES firms,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  member_id bigint NOT NULL,
  key_id bigint,
  scopes jsonb NOT NULL,
  via text NOT NULL CHECK (via IN ('key', 'sign_in')),
  last_seen_at timestamptz NOT NULL,
  idle_expires_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (firm_id, id),
  FOREIGN KEY (firm_id, member_id) REFERENCES firm_members (firm_id, id),
  FOREIGN KEY (firm_id, key_id) REFERENCES firm_keys (firm_id, id)
);
CREATE UNIQUE INDEX firm_sessions_secret_hash ON firm_sessions (secret_hash);

CREATE TABLE firm_grants (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  firm_id bigint NOT NULL REFERENCES firms,
  scopes jsonb NOT NULL,
  billing text NOT NULL CHECK (billing IN ('firm', 'client')),
  reason text,
  granted_by text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  revoked_by text,
  PRIMARY KEY (company_id, id),
  CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL))
);
CREATE UNIQUE INDEX firm_grants_live ON firm_grants (company_id, firm_id) WHERE revoked_at IS NULL;
CREATE INDEX firm_grants_by_firm ON firm_grants (firm_id, company_id) WHERE revoked_at IS NULL;

CREATE TABLE firm_agent_assignments (
  company_id uuid NOT NULL REFERENCES companies,
  firm_agent_id bigint NOT NULL,
  firm_id bigint NOT NULL,
  posting_threshold_cents bigint NOT NULL CHECK (posting_threshold_cents >= 0),
  scopes jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, firm_agent_id),
  FOREIGN KEY (firm_id, firm_agent_id) REFERENCES firm_agents (firm_id, id)
);
CREATE INDEX firm_agent_assignments_by_agent ON firm_agent_assignments (firm_id, firm_agent_id);

CREATE TABLE owner_invitations (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  firm_id bigint NOT NULL REFERENCES firms,
  user_id bigint NOT NULL,
  owner_email text CHECK (length(owner_email) <= 320),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'replaced', 'void')),
  expires_at timestamptz NOT NULL,
  claimed_at timestamptz,
  ended_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id),
  CHECK ((status = 'claimed') = (claimed_at IS NOT NULL))
);
CREATE UNIQUE INDEX owner_invitations_secret_hash ON owner_invitations (secret_hash);
CREATE UNIQUE INDEX owner_invitations_one_pending ON owner_invitations (company_id) WHERE status = 'pending';

CREATE TABLE firm_audit_events (
  firm_id bigint NOT NULL REFERENCES firms,
  seq bigint NOT NULL,
  occurred_at timestamptz NOT NULL,
  action text NOT NULL,
  principal_type text NOT NULL,
  principal_id text,
  principal_name text,
  key_id bigint,
  company_id uuid,
  target_type text,
  target_id text,
  reason text,
  via text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (firm_id, seq)
);
CREATE TRIGGER firm_audit_events_append_only BEFORE DELETE OR UPDATE ON firm_audit_events
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
`
