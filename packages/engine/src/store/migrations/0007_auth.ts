/**
 * The auth area's baseline: Sign-in and security (spec 3-endpoints-b 4.14, concepts 5.1, 5.5).
 *
 * Every sign-in row belongs to a `person`: `user:<company_id>:<user_id>` for a company's person,
 * `firm_member:<firm_id>:<member_id>` for a firm member (the seam the firms area signs its
 * members in through; no foreign key to its tables). `company_id` is set for company people, so
 * tenant statements still filter by it. Secrets (session tokens, codes, tickets, recovery codes)
 * are stored as SHA-256 hashes (kernel/Secret.ts); the authenticator-app secret is sealed with the
 * TokenSealer, bound to the person.
 */
export const sql = `
ALTER TABLE users ADD COLUMN email text CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254);
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
CREATE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;
ALTER TABLE companies ADD COLUMN require_two_step boolean NOT NULL DEFAULT false;

CREATE TABLE auth_sessions (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  kind text NOT NULL CHECK (kind IN ('web', 'firm')),
  secret_hash text NOT NULL UNIQUE,
  person text NOT NULL,
  company_id uuid REFERENCES companies,
  user_id bigint,
  firm_id bigint,
  member_id bigint,
  method text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  idle_expires_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  stepped_up_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text,
  CHECK ((kind = 'web' AND company_id IS NOT NULL AND user_id IS NOT NULL)
    OR (kind = 'firm' AND firm_id IS NOT NULL AND member_id IS NOT NULL)),
  FOREIGN KEY (company_id, user_id) REFERENCES users ON DELETE CASCADE
);
CREATE INDEX auth_sessions_person ON auth_sessions (person) WHERE revoked_at IS NULL;

CREATE TABLE auth_email_links (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  browser_hash text NOT NULL,
  address text NOT NULL,
  person text,
  company_id uuid REFERENCES companies,
  code_hash text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'used', 'locked', 'replaced')),
  wrong_codes int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX auth_email_links_browser ON auth_email_links (browser_hash, created_at DESC);
CREATE INDEX auth_email_links_address ON auth_email_links (address, created_at DESC);
CREATE INDEX auth_email_links_expiry ON auth_email_links (expires_at);

CREATE TABLE auth_tickets (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  secret_hash text NOT NULL UNIQUE,
  browser_hash text NOT NULL,
  person text NOT NULL,
  company_id uuid REFERENCES companies,
  first_factor text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'used', 'locked')),
  wrong_codes int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE auth_challenges (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  challenge text NOT NULL UNIQUE,
  purpose text NOT NULL CHECK (purpose IN ('sign_in', 'register', 'step_up')),
  person text,
  session_id bigint,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX auth_challenges_expiry ON auth_challenges (expires_at);

CREATE TABLE auth_passkeys (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  person text NOT NULL,
  company_id uuid REFERENCES companies,
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL CHECK (sign_count >= 0),
  transports jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  removed_at timestamptz
);
CREATE INDEX auth_passkeys_person ON auth_passkeys (person) WHERE removed_at IS NULL;

CREATE TABLE auth_totp (
  person text PRIMARY KEY,
  company_id uuid REFERENCES companies,
  sealed_secret text NOT NULL,
  confirmed_at timestamptz,
  last_time_step bigint,
  created_at timestamptz NOT NULL
);

CREATE TABLE auth_recovery_codes (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  person text NOT NULL,
  company_id uuid REFERENCES companies,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  ended_at timestamptz
);
CREATE INDEX auth_recovery_codes_person ON auth_recovery_codes (person) WHERE used_at IS NULL AND ended_at IS NULL;

CREATE TABLE auth_mails (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  company_id uuid REFERENCES companies,
  kind text NOT NULL CHECK (kind IN ('email_code', 'security_notice', 'verify_email')),
  to_address text NOT NULL,
  subject text NOT NULL,
  body text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
`
