-- The schema the migrations make (packages/engine/src/store/migrations), read from the catalogs by
-- packages/engine/src/store/SchemaDump.ts. Do not edit: `pnpm schema:dump` rewrites this file, and
-- test/store/schema.test.ts fails when it differs from what the migrations make.

CREATE SEQUENCE ledger_ids AS bigint START WITH 1000 INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 CACHE 1;

CREATE TABLE account_daily_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  day date NOT NULL,
  debit_cents bigint NOT NULL DEFAULT 0,
  credit_cents bigint NOT NULL DEFAULT 0,
  CONSTRAINT account_daily_totals_pkey PRIMARY KEY (company_id, account_id, day),
  CONSTRAINT account_daily_totals_company_id_account_id_fkey FOREIGN KEY (company_id, account_id) REFERENCES accounts(company_id, id),
  CONSTRAINT account_daily_totals_credit_cents_check CHECK ((credit_cents >= 0)),
  CONSTRAINT account_daily_totals_debit_cents_check CHECK ((debit_cents >= 0))
);
CREATE INDEX account_daily_totals_by_day ON account_daily_totals USING btree (company_id, day);
CREATE TRIGGER account_daily_totals_kept BEFORE INSERT OR DELETE OR UPDATE ON account_daily_totals FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_totals();
CREATE TRIGGER account_daily_totals_no_truncate BEFORE TRUNCATE ON account_daily_totals FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

CREATE TABLE account_defaults (
  company_id uuid NOT NULL,
  income_code text,
  expense_code text,
  CONSTRAINT account_defaults_pkey PRIMARY KEY (company_id),
  CONSTRAINT account_defaults_company_id_expense_code_fkey FOREIGN KEY (company_id, expense_code) REFERENCES accounts(company_id, code),
  CONSTRAINT account_defaults_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT account_defaults_company_id_income_code_fkey FOREIGN KEY (company_id, income_code) REFERENCES accounts(company_id, code)
);

CREATE TABLE account_monthly_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  month date NOT NULL,
  debit_cents bigint NOT NULL DEFAULT 0,
  credit_cents bigint NOT NULL DEFAULT 0,
  CONSTRAINT account_monthly_totals_pkey PRIMARY KEY (company_id, account_id, month),
  CONSTRAINT account_monthly_totals_company_id_account_id_fkey FOREIGN KEY (company_id, account_id) REFERENCES accounts(company_id, id),
  CONSTRAINT account_monthly_totals_credit_cents_check CHECK ((credit_cents >= 0)),
  CONSTRAINT account_monthly_totals_debit_cents_check CHECK ((debit_cents >= 0)),
  CONSTRAINT account_monthly_totals_month_check CHECK ((EXTRACT(day FROM month) = (1)::numeric))
);
CREATE TRIGGER account_monthly_totals_kept BEFORE INSERT OR DELETE OR UPDATE ON account_monthly_totals FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_totals();
CREATE TRIGGER account_monthly_totals_no_truncate BEFORE TRUNCATE ON account_monthly_totals FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

CREATE TABLE accounts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  code text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  subtype text,
  parent_code text,
  control text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamp with time zone NOT NULL,
  deactivated_at timestamp with time zone,
  CONSTRAINT accounts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT accounts_company_id_code_key UNIQUE (company_id, code),
  CONSTRAINT accounts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT accounts_company_id_parent_code_fkey FOREIGN KEY (company_id, parent_code) REFERENCES accounts(company_id, code),
  CONSTRAINT accounts_check CHECK (((control IS NULL) OR ((control = 'ar'::text) AND (type = 'asset'::text)) OR ((control = 'ap'::text) AND (type = 'liability'::text)))),
  CONSTRAINT accounts_check1 CHECK (((parent_code IS NULL) OR (parent_code <> code))),
  CONSTRAINT accounts_code_check CHECK (((code ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$'::text) AND (length(code) <= 20))),
  CONSTRAINT accounts_control_check CHECK ((control = ANY (ARRAY['ar'::text, 'ap'::text]))),
  CONSTRAINT accounts_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT accounts_subtype_check CHECK ((length(subtype) <= 60)),
  CONSTRAINT accounts_type_check CHECK ((type = ANY (ARRAY['asset'::text, 'liability'::text, 'equity'::text, 'income'::text, 'expense'::text])))
);
CREATE INDEX accounts_by_code_bytes ON accounts USING btree (company_id, code COLLATE "C");
CREATE TRIGGER accounts_guard BEFORE DELETE OR UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION ledger_accounts_guard();

CREATE TABLE agents (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  scopes jsonb NOT NULL,
  posting_threshold_cents bigint NOT NULL,
  owner_user_id bigint,
  status text NOT NULL DEFAULT 'active'::text,
  revoked_at timestamp with time zone,
  revoked_reason text,
  ai_provider text,
  ai_provider_name text,
  ai_model_family text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT agents_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT agents_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT agents_company_id_owner_user_id_fkey FOREIGN KEY (company_id, owner_user_id) REFERENCES users(company_id, id),
  CONSTRAINT agents_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT agents_posting_threshold_cents_check CHECK ((posting_threshold_cents >= 0)),
  CONSTRAINT agents_status_check CHECK ((status = ANY (ARRAY['active'::text, 'revoked'::text])))
);

CREATE TABLE ai_7216_log (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  at timestamp with time zone NOT NULL,
  event text NOT NULL,
  consent_id bigint,
  agent_id bigint,
  actor text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  CONSTRAINT ai_7216_log_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT ai_7216_log_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE ai_7216_settings (
  company_id uuid NOT NULL,
  required boolean NOT NULL DEFAULT false,
  firm_required boolean,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT ai_7216_settings_pkey PRIMARY KEY (company_id),
  CONSTRAINT ai_7216_settings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE ai_connection_agents (
  connection_id bigint NOT NULL,
  company_id uuid NOT NULL,
  agent_id bigint NOT NULL,
  CONSTRAINT ai_connection_agents_pkey PRIMARY KEY (connection_id, company_id),
  CONSTRAINT ai_connection_agents_company_id_agent_id_fkey FOREIGN KEY (company_id, agent_id) REFERENCES agents(company_id, id),
  CONSTRAINT ai_connection_agents_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES ai_connections(id)
);
CREATE INDEX ai_connection_agents_agent ON ai_connection_agents USING btree (company_id, agent_id);

CREATE TABLE ai_connection_usage (
  connection_id bigint NOT NULL,
  company_id uuid NOT NULL,
  day date NOT NULL,
  posted_cents bigint NOT NULL,
  CONSTRAINT ai_connection_usage_pkey PRIMARY KEY (connection_id, company_id, day),
  CONSTRAINT ai_connection_usage_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES ai_connections(id),
  CONSTRAINT ai_connection_usage_posted_cents_check CHECK ((posted_cents >= 0))
);

CREATE TABLE ai_connections (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  company_id uuid,
  firm_id bigint,
  client_id text NOT NULL,
  level text NOT NULL,
  per_entry_cap_cents bigint,
  daily_cap_cents bigint,
  account_codes jsonb,
  resource text NOT NULL,
  scope text,
  status text NOT NULL DEFAULT 'active'::text,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  level_changed_at timestamp with time zone,
  disconnected_at timestamp with time zone,
  disconnect_reason text,
  CONSTRAINT ai_connections_pkey PRIMARY KEY (id),
  CONSTRAINT ai_connections_client_id_fkey FOREIGN KEY (client_id) REFERENCES oauth_clients(client_id),
  CONSTRAINT ai_connections_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT ai_connections_check CHECK (((kind = 'company'::text) = (company_id IS NOT NULL))),
  CONSTRAINT ai_connections_daily_cap_cents_check CHECK ((daily_cap_cents >= 0)),
  CONSTRAINT ai_connections_kind_check CHECK ((kind = ANY (ARRAY['company'::text, 'firm'::text]))),
  CONSTRAINT ai_connections_level_check CHECK ((level = ANY (ARRAY['read'::text, 'suggest'::text, 'post'::text]))),
  CONSTRAINT ai_connections_per_entry_cap_cents_check CHECK ((per_entry_cap_cents >= 0)),
  CONSTRAINT ai_connections_status_check CHECK ((status = ANY (ARRAY['active'::text, 'disconnected'::text])))
);
CREATE INDEX ai_connections_client ON ai_connections USING btree (client_id);
CREATE INDEX ai_connections_company ON ai_connections USING btree (company_id, id) WHERE (company_id IS NOT NULL);
CREATE INDEX ai_connections_firm ON ai_connections USING btree (firm_id, id) WHERE (firm_id IS NOT NULL);

CREATE TABLE ai_consents (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  version integer NOT NULL,
  status text NOT NULL,
  providers jsonb NOT NULL,
  provider_other_name text,
  provider_other_country text,
  data_categories jsonb NOT NULL,
  purposes jsonb NOT NULL,
  purpose_detail text,
  requested_valid_until date,
  valid_until date,
  firm_id bigint,
  supersedes bigint,
  due_date date,
  text text NOT NULL,
  text_sha256 text NOT NULL,
  signed_at timestamp with time zone,
  signed_by text,
  signed_method text,
  signer_user_id bigint,
  accepted_providers jsonb NOT NULL DEFAULT '[]'::jsonb,
  signed_pdf bytea,
  ended_at timestamp with time zone,
  end_reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT ai_consents_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT ai_consents_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT ai_consents_signed_method_check CHECK ((signed_method = ANY (ARRAY['typed'::text, 'upload'::text]))),
  CONSTRAINT ai_consents_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'valid_now'::text, 'superseded'::text, 'revoked'::text, 'cancelled'::text])))
);

CREATE TABLE api_keys (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  principal_type text NOT NULL,
  user_id bigint,
  agent_id bigint,
  scopes jsonb NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  last_used_at timestamp with time zone,
  rate_limit_rpm integer,
  rotated_from_key_id bigint,
  rotated_to_key_id bigint,
  overlap_ends_at timestamp with time zone,
  revoked_at timestamp with time zone,
  revoked_reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT api_keys_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT api_keys_company_id_agent_id_fkey FOREIGN KEY (company_id, agent_id) REFERENCES agents(company_id, id),
  CONSTRAINT api_keys_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT api_keys_company_id_user_id_fkey FOREIGN KEY (company_id, user_id) REFERENCES users(company_id, id),
  CONSTRAINT api_keys_check CHECK (((principal_type = 'user'::text) = (user_id IS NOT NULL))),
  CONSTRAINT api_keys_check1 CHECK (((principal_type = 'agent'::text) = (agent_id IS NOT NULL))),
  CONSTRAINT api_keys_principal_type_check CHECK ((principal_type = ANY (ARRAY['user'::text, 'agent'::text]))),
  CONSTRAINT api_keys_rate_limit_rpm_check CHECK ((rate_limit_rpm > 0))
);
CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys USING btree (secret_hash);

CREATE TABLE applications (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  payment_id bigint,
  credit_document_id bigint,
  document_id bigint NOT NULL,
  amount_cents bigint NOT NULL,
  applied_on date NOT NULL,
  voided_on date,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT applications_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT applications_company_id_credit_document_id_fkey FOREIGN KEY (company_id, credit_document_id) REFERENCES documents(company_id, id),
  CONSTRAINT applications_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id),
  CONSTRAINT applications_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT applications_company_id_payment_id_fkey FOREIGN KEY (company_id, payment_id) REFERENCES payments(company_id, id),
  CONSTRAINT applications_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT applications_check CHECK (((payment_id IS NULL) <> (credit_document_id IS NULL)))
);
CREATE INDEX applications_by_credit ON applications USING btree (company_id, credit_document_id) WHERE (credit_document_id IS NOT NULL);
CREATE INDEX applications_by_document ON applications USING btree (company_id, document_id);
CREATE INDEX applications_by_payment ON applications USING btree (company_id, payment_id) WHERE (payment_id IS NOT NULL);

CREATE TABLE audit_chain_heads (
  company_id uuid NOT NULL,
  seq bigint NOT NULL,
  hash text NOT NULL,
  prev_hash text NOT NULL,
  CONSTRAINT audit_chain_heads_pkey PRIMARY KEY (company_id),
  CONSTRAINT audit_chain_heads_hash_check CHECK ((hash ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT audit_chain_heads_seq_check CHECK ((seq >= 0))
);
CREATE TRIGGER audit_chain_heads_kept BEFORE INSERT OR DELETE OR UPDATE ON audit_chain_heads FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_audit_heads();
CREATE TRIGGER audit_chain_heads_no_truncate BEFORE TRUNCATE ON audit_chain_heads FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

CREATE TABLE audit_events (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  occurred_at timestamp with time zone NOT NULL,
  action text NOT NULL,
  outcome text NOT NULL,
  status integer NOT NULL,
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
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  seq bigint NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  CONSTRAINT audit_events_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT audit_events_outcome_check CHECK ((outcome = ANY (ARRAY['ok'::text, 'refused'::text])))
);
CREATE UNIQUE INDEX audit_events_chain ON audit_events USING btree (company_id, seq);
CREATE TRIGGER audit_events_append_only BEFORE DELETE OR UPDATE ON audit_events FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER audit_events_chained BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ledger_audit_chain();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

CREATE TABLE auth_challenges (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  challenge text NOT NULL,
  purpose text NOT NULL,
  person text,
  session_id bigint,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  CONSTRAINT auth_challenges_pkey PRIMARY KEY (id),
  CONSTRAINT auth_challenges_challenge_key UNIQUE (challenge),
  CONSTRAINT auth_challenges_purpose_check CHECK ((purpose = ANY (ARRAY['sign_in'::text, 'register'::text, 'step_up'::text])))
);
CREATE INDEX auth_challenges_expiry ON auth_challenges USING btree (expires_at);

CREATE TABLE auth_email_links (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  browser_hash text NOT NULL,
  address text NOT NULL,
  person text,
  company_id uuid,
  code_hash text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  wrong_codes integer NOT NULL DEFAULT 0,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  CONSTRAINT auth_email_links_pkey PRIMARY KEY (id),
  CONSTRAINT auth_email_links_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT auth_email_links_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'used'::text, 'locked'::text, 'replaced'::text])))
);
CREATE INDEX auth_email_links_address ON auth_email_links USING btree (address, created_at DESC);
CREATE INDEX auth_email_links_browser ON auth_email_links USING btree (browser_hash, created_at DESC);
CREATE INDEX auth_email_links_expiry ON auth_email_links USING btree (expires_at);

CREATE TABLE auth_mails (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  company_id uuid,
  kind text NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text,
  status text NOT NULL DEFAULT 'queued'::text,
  created_at timestamp with time zone NOT NULL,
  sent_at timestamp with time zone,
  person text,
  CONSTRAINT auth_mails_pkey PRIMARY KEY (id),
  CONSTRAINT auth_mails_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT auth_mails_kind_check CHECK ((kind = ANY (ARRAY['email_code'::text, 'security_notice'::text, 'verify_email'::text]))),
  CONSTRAINT auth_mails_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text, 'void'::text])))
);

CREATE TABLE auth_passkeys (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  person text NOT NULL,
  company_id uuid,
  credential_id text NOT NULL,
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL,
  transports jsonb NOT NULL DEFAULT '[]'::jsonb,
  name text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  last_used_at timestamp with time zone,
  removed_at timestamp with time zone,
  CONSTRAINT auth_passkeys_pkey PRIMARY KEY (id),
  CONSTRAINT auth_passkeys_credential_id_key UNIQUE (credential_id),
  CONSTRAINT auth_passkeys_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT auth_passkeys_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT auth_passkeys_sign_count_check CHECK ((sign_count >= 0))
);
CREATE INDEX auth_passkeys_person ON auth_passkeys USING btree (person) WHERE (removed_at IS NULL);

CREATE TABLE auth_recovery_codes (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  person text NOT NULL,
  company_id uuid,
  code_hash text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  ended_at timestamp with time zone,
  CONSTRAINT auth_recovery_codes_pkey PRIMARY KEY (id),
  CONSTRAINT auth_recovery_codes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);
CREATE INDEX auth_recovery_codes_person ON auth_recovery_codes USING btree (person) WHERE ((used_at IS NULL) AND (ended_at IS NULL));

CREATE TABLE auth_sessions (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  secret_hash text NOT NULL,
  person text NOT NULL,
  company_id uuid,
  user_id bigint,
  firm_id bigint,
  member_id bigint,
  method text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  last_used_at timestamp with time zone NOT NULL,
  idle_expires_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  stepped_up_at timestamp with time zone,
  revoked_at timestamp with time zone,
  revoked_reason text,
  CONSTRAINT auth_sessions_pkey PRIMARY KEY (id),
  CONSTRAINT auth_sessions_secret_hash_key UNIQUE (secret_hash),
  CONSTRAINT auth_sessions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT auth_sessions_company_id_user_id_fkey FOREIGN KEY (company_id, user_id) REFERENCES users(company_id, id) ON DELETE CASCADE,
  CONSTRAINT auth_sessions_check CHECK ((((kind = 'web'::text) AND (company_id IS NOT NULL) AND (user_id IS NOT NULL)) OR ((kind = 'firm'::text) AND (firm_id IS NOT NULL) AND (member_id IS NOT NULL)))),
  CONSTRAINT auth_sessions_kind_check CHECK ((kind = ANY (ARRAY['web'::text, 'firm'::text])))
);
CREATE INDEX auth_sessions_person ON auth_sessions USING btree (person) WHERE (revoked_at IS NULL);

CREATE TABLE auth_throttle (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  bucket text NOT NULL,
  at timestamp with time zone NOT NULL,
  CONSTRAINT auth_throttle_pkey PRIMARY KEY (id),
  CONSTRAINT auth_throttle_bucket_check CHECK ((length(bucket) <= 600))
);
CREATE INDEX auth_throttle_at ON auth_throttle USING btree (at);
CREATE INDEX auth_throttle_bucket ON auth_throttle USING btree (bucket, at);

CREATE TABLE auth_tickets (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  secret_hash text NOT NULL,
  browser_hash text NOT NULL,
  person text NOT NULL,
  company_id uuid,
  first_factor text NOT NULL,
  status text NOT NULL DEFAULT 'open'::text,
  wrong_codes integer NOT NULL DEFAULT 0,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  CONSTRAINT auth_tickets_pkey PRIMARY KEY (id),
  CONSTRAINT auth_tickets_secret_hash_key UNIQUE (secret_hash),
  CONSTRAINT auth_tickets_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT auth_tickets_status_check CHECK ((status = ANY (ARRAY['open'::text, 'used'::text, 'locked'::text])))
);

CREATE TABLE auth_totp (
  person text NOT NULL,
  company_id uuid,
  sealed_secret text NOT NULL,
  confirmed_at timestamp with time zone,
  last_time_step bigint,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT auth_totp_pkey PRIMARY KEY (person),
  CONSTRAINT auth_totp_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE bank_accounts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  kind text NOT NULL,
  account_id bigint NOT NULL,
  institution text,
  mask text,
  csv_profile jsonb,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT bank_accounts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT bank_accounts_company_id_account_id_key UNIQUE (company_id, account_id),
  CONSTRAINT bank_accounts_company_id_account_id_fkey FOREIGN KEY (company_id, account_id) REFERENCES accounts(company_id, id),
  CONSTRAINT bank_accounts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT bank_accounts_institution_check CHECK ((length(institution) <= 200)),
  CONSTRAINT bank_accounts_kind_check CHECK ((kind = ANY (ARRAY['checking'::text, 'savings'::text, 'credit_card'::text, 'other'::text]))),
  CONSTRAINT bank_accounts_mask_check CHECK ((length(mask) <= 34)),
  CONSTRAINT bank_accounts_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);
CREATE TRIGGER bank_accounts_guard BEFORE DELETE OR UPDATE ON bank_accounts FOR EACH ROW EXECUTE FUNCTION banking_bank_accounts_guard();

CREATE TABLE bank_feed_accounts (
  company_id uuid NOT NULL,
  bank_feed_id bigint NOT NULL,
  account text NOT NULL,
  name text NOT NULL,
  mask text,
  kind text NOT NULL,
  bank_account_id bigint,
  import_from date,
  linked_at timestamp with time zone,
  unlinked_at timestamp with time zone,
  unlink_reason text,
  CONSTRAINT bank_feed_accounts_pkey PRIMARY KEY (company_id, bank_feed_id, account),
  CONSTRAINT bank_feed_accounts_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT bank_feed_accounts_company_id_bank_feed_id_fkey FOREIGN KEY (company_id, bank_feed_id) REFERENCES bank_feeds(company_id, id),
  CONSTRAINT bank_feed_accounts_check CHECK (((linked_at IS NULL) = (bank_account_id IS NULL)))
);
CREATE UNIQUE INDEX bank_feed_accounts_one_per_bank_account ON bank_feed_accounts USING btree (company_id, bank_account_id) WHERE (bank_account_id IS NOT NULL);

CREATE TABLE bank_feeds (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  item_id text NOT NULL,
  institution text,
  sealed_access_token text NOT NULL,
  status text NOT NULL DEFAULT 'active'::text,
  include_pending boolean NOT NULL DEFAULT false,
  sync_cursor text,
  last_sync_at timestamp with time zone,
  last_error text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT bank_feeds_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT bank_feeds_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT bank_feeds_status_check CHECK ((status = ANY (ARRAY['active'::text, 'login_required'::text, 'error'::text])))
);

CREATE TABLE bank_lines (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  bank_account_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'unmatched'::text,
  line_date date NOT NULL,
  amount_cents bigint NOT NULL,
  payee text,
  memo text,
  check_number text,
  statement_id text,
  dedupe_key text NOT NULL,
  source text NOT NULL,
  import_id bigint,
  feed_transaction_id text,
  pending boolean NOT NULL DEFAULT false,
  entry_id bigint,
  proposal_id bigint,
  excluded_reason text,
  review text,
  withdrawn_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT bank_lines_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT bank_lines_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT bank_lines_company_id_entry_id_fkey FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT bank_lines_company_id_import_id_fkey FOREIGN KEY (company_id, import_id) REFERENCES statement_imports(company_id, id),
  CONSTRAINT bank_lines_company_id_proposal_id_fkey FOREIGN KEY (company_id, proposal_id) REFERENCES proposals(company_id, id),
  CONSTRAINT bank_lines_amount_cents_check CHECK ((abs(amount_cents) <= '1000000000000000'::bigint)),
  CONSTRAINT bank_lines_check CHECK (((status = ANY (ARRAY['matched'::text, 'categorized'::text])) = (entry_id IS NOT NULL))),
  CONSTRAINT bank_lines_check1 CHECK (((status <> 'proposed'::text) OR (proposal_id IS NOT NULL))),
  CONSTRAINT bank_lines_check2 CHECK (((status = 'excluded'::text) = (excluded_reason IS NOT NULL))),
  CONSTRAINT bank_lines_check3 CHECK (((withdrawn_at IS NULL) OR (status = ANY (ARRAY['unmatched'::text, 'excluded'::text])))),
  CONSTRAINT bank_lines_source_check CHECK ((source = ANY (ARRAY['file'::text, 'feed'::text]))),
  CONSTRAINT bank_lines_status_check CHECK ((status = ANY (ARRAY['unmatched'::text, 'proposed'::text, 'matched'::text, 'categorized'::text, 'excluded'::text])))
);
CREATE INDEX bank_lines_by_account_date ON bank_lines USING btree (company_id, bank_account_id, line_date);
CREATE INDEX bank_lines_by_status ON bank_lines USING btree (company_id, status, id);
CREATE UNIQUE INDEX bank_lines_dedupe ON bank_lines USING btree (company_id, bank_account_id, dedupe_key);
CREATE UNIQUE INDEX bank_lines_entry ON bank_lines USING btree (company_id, bank_account_id, entry_id) WHERE (entry_id IS NOT NULL);
CREATE UNIQUE INDEX bank_lines_feed_transaction ON bank_lines USING btree (company_id, bank_account_id, feed_transaction_id) WHERE (feed_transaction_id IS NOT NULL);

CREATE TABLE bank_rules (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  priority integer NOT NULL,
  bank_account_id bigint,
  payee_contains text,
  direction text NOT NULL DEFAULT 'any'::text,
  amount_min_cents bigint,
  amount_max_cents bigint,
  account_id bigint NOT NULL,
  class_name text,
  memo text,
  active boolean NOT NULL DEFAULT true,
  deactivated_reason text,
  deactivated_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT bank_rules_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT bank_rules_company_id_account_id_fkey FOREIGN KEY (company_id, account_id) REFERENCES accounts(company_id, id),
  CONSTRAINT bank_rules_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT bank_rules_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT bank_rules_amount_max_cents_check CHECK ((amount_max_cents >= 0)),
  CONSTRAINT bank_rules_amount_min_cents_check CHECK ((amount_min_cents >= 0)),
  CONSTRAINT bank_rules_check CHECK (((amount_min_cents IS NULL) OR (amount_max_cents IS NULL) OR (amount_min_cents <= amount_max_cents))),
  CONSTRAINT bank_rules_check1 CHECK ((active = (deactivated_at IS NULL))),
  CONSTRAINT bank_rules_direction_check CHECK ((direction = ANY (ARRAY['in'::text, 'out'::text, 'any'::text]))),
  CONSTRAINT bank_rules_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);
CREATE INDEX bank_rules_order ON bank_rules USING btree (company_id, active, priority, id);
CREATE TRIGGER bank_rules_guard BEFORE DELETE OR UPDATE ON bank_rules FOR EACH ROW EXECUTE FUNCTION banking_bank_rules_guard();

CREATE TABLE billing_invoices (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  amount_cents bigint NOT NULL,
  description text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT billing_invoices_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT billing_invoices_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE billing_subscriptions (
  company_id uuid NOT NULL,
  plan text,
  interval text,
  status text NOT NULL DEFAULT 'none'::text,
  customer_id text,
  subscription_id text,
  trial_ends_at timestamp with time zone,
  current_period_end timestamp with time zone,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  scheduled_plan text,
  scheduled_interval text,
  feed_accounts integer NOT NULL DEFAULT 0,
  crypto_addon boolean NOT NULL DEFAULT false,
  overage_cap_cents bigint NOT NULL DEFAULT 0,
  updated_at timestamp with time zone,
  CONSTRAINT billing_subscriptions_pkey PRIMARY KEY (company_id),
  CONSTRAINT billing_subscriptions_subscription_id_key UNIQUE (subscription_id),
  CONSTRAINT billing_subscriptions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT billing_subscriptions_interval_check CHECK (("interval" = ANY (ARRAY['month'::text, 'year'::text]))),
  CONSTRAINT billing_subscriptions_plan_check CHECK ((plan = ANY (ARRAY['solo'::text, 'business'::text, 'advanced'::text]))),
  CONSTRAINT billing_subscriptions_scheduled_interval_check CHECK ((scheduled_interval = ANY (ARRAY['month'::text, 'year'::text]))),
  CONSTRAINT billing_subscriptions_scheduled_plan_check CHECK ((scheduled_plan = ANY (ARRAY['solo'::text, 'business'::text, 'advanced'::text]))),
  CONSTRAINT billing_subscriptions_status_check CHECK ((status = ANY (ARRAY['none'::text, 'trialing'::text, 'active'::text, 'past_due'::text, 'canceled'::text, 'incomplete'::text])))
);

CREATE TABLE classes (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT classes_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT classes_company_id_name_key UNIQUE (company_id, name),
  CONSTRAINT classes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT classes_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

CREATE TABLE companies (
  company_id uuid NOT NULL,
  name text NOT NULL,
  plan text NOT NULL,
  rate_limit_rpm integer,
  fiscal_year_start_month integer NOT NULL DEFAULT 1,
  kill_switch_suspended boolean NOT NULL DEFAULT false,
  kill_switch_reason text,
  kill_switch_changed_at timestamp with time zone,
  starter_chart text NOT NULL,
  periods boolean NOT NULL,
  created_at timestamp with time zone NOT NULL,
  require_two_step boolean NOT NULL DEFAULT false,
  crypto_addon boolean NOT NULL DEFAULT false,
  CONSTRAINT companies_pkey PRIMARY KEY (company_id),
  CONSTRAINT companies_fiscal_year_start_month_check CHECK (((fiscal_year_start_month >= 1) AND (fiscal_year_start_month <= 12))),
  CONSTRAINT companies_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT companies_plan_check CHECK ((plan = ANY (ARRAY['solo'::text, 'business'::text, 'advanced'::text, 'owned'::text]))),
  CONSTRAINT companies_rate_limit_rpm_check CHECK ((rate_limit_rpm > 0)),
  CONSTRAINT companies_starter_chart_check CHECK ((starter_chart = ANY (ARRAY['general'::text, 'services'::text, 'retail'::text, 'empty'::text])))
);

CREATE TABLE company_profiles (
  company_id uuid NOT NULL,
  legal_name text,
  dba text,
  address_line1 text,
  address_line2 text,
  city text,
  region text,
  postal_code text,
  country text NOT NULL DEFAULT 'US'::text,
  phone text,
  email text,
  website text,
  ein text,
  show_ein boolean NOT NULL DEFAULT false,
  sales_tax_id text,
  brand_color text,
  payment_instructions text,
  footer_text text,
  logo bytea,
  logo_media_type text,
  logo_file_name text,
  logo_width integer,
  logo_height integer,
  logo_updated_at timestamp with time zone,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT company_profiles_pkey PRIMARY KEY (company_id),
  CONSTRAINT company_profiles_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT company_profiles_brand_color_check CHECK ((brand_color ~ '^#[0-9a-f]{6}$'::text)),
  CONSTRAINT company_profiles_country_check CHECK ((country ~ '^[A-Z]{2}$'::text)),
  CONSTRAINT company_profiles_ein_check CHECK ((ein ~ '^[0-9]{9}$'::text)),
  CONSTRAINT company_profiles_logo_media_type_check CHECK ((logo_media_type = ANY (ARRAY['image/png'::text, 'image/svg+xml'::text])))
);

CREATE TABLE contacts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  name text NOT NULL,
  email text,
  terms_days integer,
  active boolean NOT NULL DEFAULT true,
  is_1099 boolean NOT NULL DEFAULT false,
  tax_id_last4 text,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT contacts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT contacts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT contacts_check CHECK (((kind = 'vendor'::text) OR (NOT is_1099))),
  CONSTRAINT contacts_email_check CHECK ((length(email) <= 254)),
  CONSTRAINT contacts_kind_check CHECK ((kind = ANY (ARRAY['customer'::text, 'vendor'::text]))),
  CONSTRAINT contacts_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT contacts_tax_id_last4_check CHECK ((tax_id_last4 ~ '^[0-9]{4}$'::text)),
  CONSTRAINT contacts_terms_days_check CHECK (((terms_days >= 0) AND (terms_days <= 3650)))
);
CREATE INDEX contacts_by_kind ON contacts USING btree (company_id, kind, id);

CREATE TABLE crypto_disposals (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  wallet_id bigint NOT NULL,
  asset text NOT NULL,
  kind text NOT NULL,
  disposed_at timestamp with time zone NOT NULL,
  units numeric(40,0) NOT NULL,
  proceeds_cents bigint NOT NULL,
  cost_cents bigint NOT NULL,
  short_term_gain_cents bigint NOT NULL,
  long_term_gain_cents bigint NOT NULL,
  to_wallet_id bigint,
  counter_account text,
  txid text,
  memo text,
  entry_id bigint,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_disposals_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_disposals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_disposals_company_id_wallet_id_fkey FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets(company_id, id),
  CONSTRAINT crypto_disposals_kind_check CHECK ((kind = ANY (ARRAY['sell'::text, 'spend'::text, 'transfer'::text, 'fee'::text, 'other'::text]))),
  CONSTRAINT crypto_disposals_units_check CHECK ((units > (0)::numeric))
);
CREATE INDEX crypto_disposals_by_date ON crypto_disposals USING btree (company_id, disposed_at, id);

CREATE TABLE crypto_lots (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  wallet_id bigint NOT NULL,
  asset text NOT NULL,
  source text NOT NULL,
  acquired_at timestamp with time zone NOT NULL,
  units numeric(40,0) NOT NULL,
  remaining_units numeric(40,0) NOT NULL,
  cost_cents bigint NOT NULL,
  remaining_cost_cents bigint NOT NULL,
  entry_id bigint,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_lots_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_lots_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_lots_company_id_wallet_id_fkey FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets(company_id, id),
  CONSTRAINT crypto_lots_check CHECK (((remaining_units >= (0)::numeric) AND (remaining_units <= units))),
  CONSTRAINT crypto_lots_check1 CHECK (((remaining_cost_cents >= 0) AND (remaining_cost_cents <= cost_cents))),
  CONSTRAINT crypto_lots_cost_cents_check CHECK ((cost_cents >= 0)),
  CONSTRAINT crypto_lots_source_check CHECK ((source = ANY (ARRAY['acquisition'::text, 'receipt'::text, 'transfer'::text]))),
  CONSTRAINT crypto_lots_units_check CHECK ((units > (0)::numeric))
);
CREATE INDEX crypto_lots_open ON crypto_lots USING btree (company_id, wallet_id, acquired_at, id) WHERE (remaining_units > (0)::numeric);

CREATE TABLE crypto_quotes (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  wallet_id bigint NOT NULL,
  document_id bigint NOT NULL,
  asset text NOT NULL,
  address text NOT NULL,
  address_index integer,
  amount_cents bigint NOT NULL,
  price text NOT NULL,
  amount_units numeric(40,0) NOT NULL,
  received_units numeric(40,0) NOT NULL DEFAULT 0,
  expires_at timestamp with time zone NOT NULL,
  status text NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_quotes_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_quotes_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id),
  CONSTRAINT crypto_quotes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_quotes_company_id_wallet_id_fkey FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets(company_id, id),
  CONSTRAINT crypto_quotes_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT crypto_quotes_amount_units_check CHECK ((amount_units > (0)::numeric)),
  CONSTRAINT crypto_quotes_status_check CHECK ((status = ANY (ARRAY['open'::text, 'paid'::text, 'underpaid'::text, 'overpaid'::text, 'expired'::text, 'cancelled'::text])))
);
CREATE UNIQUE INDEX crypto_quotes_address ON crypto_quotes USING btree (company_id, wallet_id, address) WHERE (address_index IS NOT NULL);
CREATE INDEX crypto_quotes_open ON crypto_quotes USING btree (company_id, wallet_id) WHERE (status = 'open'::text);

CREATE TABLE crypto_receipts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  wallet_id bigint NOT NULL,
  quote_id bigint,
  asset text NOT NULL,
  txid text NOT NULL,
  output_index integer NOT NULL,
  address text NOT NULL,
  units numeric(40,0) NOT NULL,
  confirmations integer NOT NULL,
  status text NOT NULL,
  payment text,
  document_id bigint,
  price text,
  value_cents bigint,
  account text,
  entry_id bigint,
  lot_id bigint,
  memo text,
  reason text,
  seen_at timestamp with time zone NOT NULL,
  confirmed_at timestamp with time zone,
  assigned_at timestamp with time zone,
  assigned_by text,
  CONSTRAINT crypto_receipts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_receipts_company_id_wallet_id_txid_output_index_key UNIQUE (company_id, wallet_id, txid, output_index),
  CONSTRAINT crypto_receipts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_receipts_company_id_wallet_id_fkey FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets(company_id, id),
  CONSTRAINT crypto_receipts_payment_check CHECK ((payment = ANY (ARRAY['exact'::text, 'under'::text, 'over'::text, 'late'::text]))),
  CONSTRAINT crypto_receipts_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'confirmed'::text, 'assigned'::text, 'ignored'::text]))),
  CONSTRAINT crypto_receipts_units_check CHECK ((units > (0)::numeric))
);
CREATE INDEX crypto_receipts_by_status ON crypto_receipts USING btree (company_id, status, id);

CREATE TABLE crypto_reliefs (
  company_id uuid NOT NULL,
  disposal_id bigint NOT NULL,
  lot_id bigint NOT NULL,
  units numeric(40,0) NOT NULL,
  cost_cents bigint NOT NULL,
  proceeds_cents bigint NOT NULL,
  term text NOT NULL,
  CONSTRAINT crypto_reliefs_pkey PRIMARY KEY (company_id, disposal_id, lot_id),
  CONSTRAINT crypto_reliefs_company_id_disposal_id_fkey FOREIGN KEY (company_id, disposal_id) REFERENCES crypto_disposals(company_id, id),
  CONSTRAINT crypto_reliefs_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_reliefs_company_id_lot_id_fkey FOREIGN KEY (company_id, lot_id) REFERENCES crypto_lots(company_id, id),
  CONSTRAINT crypto_reliefs_term_check CHECK ((term = ANY (ARRAY['short'::text, 'long'::text]))),
  CONSTRAINT crypto_reliefs_units_check CHECK ((units > (0)::numeric))
);

CREATE TABLE crypto_remeasurements (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  period_end date NOT NULL,
  adjustment_cents bigint NOT NULL,
  entry_id bigint,
  reversal_entry_id bigint,
  lines jsonb NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_remeasurements_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_remeasurements_company_id_period_end_key UNIQUE (company_id, period_end),
  CONSTRAINT crypto_remeasurements_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE crypto_settings (
  company_id uuid NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  quote_minutes integer NOT NULL,
  btc_confirmations integer NOT NULL,
  xmr_confirmations integer NOT NULL,
  remeasure boolean NOT NULL DEFAULT false,
  realized_account text,
  unrealized_account text,
  settlement_account text,
  fair_value_account text,
  fee_account text,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_settings_pkey PRIMARY KEY (company_id),
  CONSTRAINT crypto_settings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_settings_btc_confirmations_check CHECK (((btc_confirmations >= 1) AND (btc_confirmations <= 6))),
  CONSTRAINT crypto_settings_quote_minutes_check CHECK (((quote_minutes >= 5) AND (quote_minutes <= 1440))),
  CONSTRAINT crypto_settings_xmr_confirmations_check CHECK (((xmr_confirmations >= 10) AND (xmr_confirmations <= 30)))
);

CREATE TABLE crypto_valuations (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  asset text NOT NULL,
  at timestamp with time zone NOT NULL,
  price text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL,
  manual boolean NOT NULL,
  proposed_by text NOT NULL,
  decided_by text,
  decided_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_valuations_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_valuations_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_valuations_asset_check CHECK ((asset = ANY (ARRAY['BTC'::text, 'XMR'::text, 'USDC'::text, 'USDT'::text]))),
  CONSTRAINT crypto_valuations_status_check CHECK ((status = ANY (ARRAY['proposed'::text, 'confirmed'::text, 'rejected'::text])))
);
CREATE INDEX crypto_valuations_by_asset ON crypto_valuations USING btree (company_id, asset, at DESC) WHERE (status = 'confirmed'::text);

CREATE TABLE crypto_wallets (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  rail text NOT NULL,
  asset text NOT NULL,
  name text NOT NULL,
  key_kind text NOT NULL,
  script_type text NOT NULL,
  network text NOT NULL,
  sealed_key text NOT NULL,
  key_fingerprint text NOT NULL,
  address text,
  restore_height bigint,
  lot_method text NOT NULL,
  gap_limit integer NOT NULL,
  next_index integer NOT NULL DEFAULT 0,
  last_paid_index integer NOT NULL DEFAULT '-1'::integer,
  ledger_account text NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  archive_reason text,
  archived_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT crypto_wallets_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT crypto_wallets_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT crypto_wallets_asset_check CHECK ((asset = ANY (ARRAY['BTC'::text, 'XMR'::text, 'USDC'::text, 'USDT'::text]))),
  CONSTRAINT crypto_wallets_check CHECK ((archived = (archive_reason IS NOT NULL))),
  CONSTRAINT crypto_wallets_gap_limit_check CHECK (((gap_limit >= 1) AND (gap_limit <= 1000))),
  CONSTRAINT crypto_wallets_key_kind_check CHECK ((key_kind = ANY (ARRAY['extended_public_key'::text, 'descriptor'::text, 'address'::text, 'view_key'::text]))),
  CONSTRAINT crypto_wallets_lot_method_check CHECK ((lot_method = ANY (ARRAY['fifo'::text, 'specific'::text]))),
  CONSTRAINT crypto_wallets_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT crypto_wallets_network_check CHECK ((network = ANY (ARRAY['mainnet'::text, 'testnet'::text, 'stagenet'::text]))),
  CONSTRAINT crypto_wallets_next_index_check CHECK ((next_index >= 0)),
  CONSTRAINT crypto_wallets_rail_check CHECK ((rail = ANY (ARRAY['btc'::text, 'xmr'::text, 'usdc_base'::text, 'usdc_ethereum'::text, 'usdc_solana'::text, 'usdt_ethereum'::text, 'usdt_tron'::text])))
);
CREATE UNIQUE INDEX crypto_wallets_key ON crypto_wallets USING btree (company_id, rail, key_fingerprint) WHERE (NOT archived);

CREATE TABLE document_lines (
  company_id uuid NOT NULL,
  document_id bigint NOT NULL,
  line_no integer NOT NULL,
  item_id bigint,
  description text,
  account text NOT NULL,
  quantity text,
  unit_price_cents bigint,
  amount_cents bigint NOT NULL,
  class text,
  taxable boolean NOT NULL,
  CONSTRAINT document_lines_pkey PRIMARY KEY (company_id, document_id, line_no),
  CONSTRAINT document_lines_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id),
  CONSTRAINT document_lines_company_id_item_id_fkey FOREIGN KEY (company_id, item_id) REFERENCES items(company_id, id),
  CONSTRAINT document_lines_line_no_check CHECK (((line_no >= 1) AND (line_no <= 200)))
);

CREATE TABLE document_tax_lines (
  company_id uuid NOT NULL,
  document_id bigint NOT NULL,
  position integer NOT NULL,
  tax_rate_id bigint NOT NULL,
  name text NOT NULL,
  agency_id bigint NOT NULL,
  rate_percent text NOT NULL,
  payable_account text NOT NULL,
  taxable_subtotal_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  CONSTRAINT document_tax_lines_pkey PRIMARY KEY (company_id, document_id, "position"),
  CONSTRAINT document_tax_lines_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id)
);

CREATE TABLE documents (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  side text NOT NULL,
  contact_id bigint NOT NULL,
  number text NOT NULL,
  doc_date date NOT NULL,
  due_date date,
  terms_days integer,
  reference text,
  memo text,
  control_account text NOT NULL,
  tax_rate_id bigint,
  subtotal_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  total_cents bigint NOT NULL,
  entry_id bigint NOT NULL,
  voided boolean NOT NULL DEFAULT false,
  void_entry_id bigint,
  void_reason text,
  void_date date,
  voided_at timestamp with time zone,
  estimate_id bigint,
  recurring_template_id bigint,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT documents_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT documents_company_id_entry_id_key UNIQUE (company_id, entry_id),
  CONSTRAINT documents_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT documents_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT documents_company_id_tax_rate_id_fkey FOREIGN KEY (company_id, tax_rate_id) REFERENCES tax_rates(company_id, id),
  CONSTRAINT documents_check CHECK ((total_cents = (subtotal_cents + tax_cents))),
  CONSTRAINT documents_check1 CHECK ((voided = (void_reason IS NOT NULL))),
  CONSTRAINT documents_kind_check CHECK ((kind = ANY (ARRAY['invoice'::text, 'credit_memo'::text, 'bill'::text, 'vendor_credit'::text, 'sales_receipt'::text, 'refund'::text, 'vendor_refund'::text]))),
  CONSTRAINT documents_number_check CHECK (((length(number) >= 1) AND (length(number) <= 40))),
  CONSTRAINT documents_side_check CHECK ((side = ANY (ARRAY['sales'::text, 'purchases'::text]))),
  CONSTRAINT documents_total_cents_check CHECK ((total_cents > 0))
);
CREATE INDEX documents_by_contact ON documents USING btree (company_id, contact_id, doc_date);
CREATE INDEX documents_by_date ON documents USING btree (company_id, doc_date, id);
CREATE UNIQUE INDEX documents_purchases_number ON documents USING btree (company_id, kind, contact_id, number) WHERE (side = 'purchases'::text);
CREATE UNIQUE INDEX documents_sales_number ON documents USING btree (company_id, kind, number) WHERE (side = 'sales'::text);

CREATE TABLE email_settings (
  company_id uuid NOT NULL,
  reply_to text,
  display_name text,
  security_notices_to text,
  reminders_enabled boolean NOT NULL DEFAULT false,
  reminder_days jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at timestamp with time zone,
  CONSTRAINT email_settings_pkey PRIMARY KEY (company_id),
  CONSTRAINT email_settings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE email_suppressions (
  company_id uuid NOT NULL,
  address text NOT NULL,
  reason text NOT NULL,
  email_id bigint,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT email_suppressions_pkey PRIMARY KEY (company_id, address),
  CONSTRAINT email_suppressions_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE emails (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  status text NOT NULL,
  document_id bigint,
  estimate_id bigint,
  to_address text NOT NULL,
  to_name text,
  cc jsonb NOT NULL DEFAULT '[]'::jsonb,
  subject text NOT NULL,
  message text,
  attachment_name text,
  policy_verdict text NOT NULL,
  policy_reasons jsonb NOT NULL DEFAULT '[]'::jsonb,
  requested_by text NOT NULL,
  decided_by text,
  decision_reason text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  provider_message_id text,
  sent_at timestamp with time zone,
  reminder_key text,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT emails_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT emails_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id),
  CONSTRAINT emails_company_id_estimate_id_fkey FOREIGN KEY (company_id, estimate_id) REFERENCES estimates(company_id, id),
  CONSTRAINT emails_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT emails_kind_check CHECK ((kind = ANY (ARRAY['document'::text, 'estimate'::text, 'reminder'::text]))),
  CONSTRAINT emails_policy_verdict_check CHECK ((policy_verdict = ANY (ARRAY['send'::text, 'approve'::text]))),
  CONSTRAINT emails_status_check CHECK ((status = ANY (ARRAY['pending_approval'::text, 'queued'::text, 'sending'::text, 'sent'::text, 'failed'::text, 'suppressed'::text, 'rejected'::text, 'cancelled'::text])))
);
CREATE INDEX emails_by_status ON emails USING btree (company_id, status, id);
CREATE UNIQUE INDEX emails_reminder_once ON emails USING btree (company_id, reminder_key) WHERE (reminder_key IS NOT NULL);

CREATE TABLE estimated_tax_payments (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  tax_year integer NOT NULL,
  quarter integer NOT NULL,
  paid_on date NOT NULL,
  amount_cents bigint NOT NULL,
  method text NOT NULL,
  confirmation text,
  note text,
  payment_account text,
  pay_from_account text,
  outside_books boolean NOT NULL,
  entry_id bigint,
  status text NOT NULL DEFAULT 'recorded'::text,
  void_entry_id bigint,
  void_reason text,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT estimated_tax_payments_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT estimated_tax_payments_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT estimated_tax_payments_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT estimated_tax_payments_check CHECK ((outside_books OR (entry_id IS NOT NULL))),
  CONSTRAINT estimated_tax_payments_method_check CHECK ((method = ANY (ARRAY['eftps'::text, 'direct_pay'::text, 'irs_account'::text, 'card'::text, 'check'::text, 'other'::text]))),
  CONSTRAINT estimated_tax_payments_quarter_check CHECK (((quarter >= 1) AND (quarter <= 4))),
  CONSTRAINT estimated_tax_payments_status_check CHECK ((status = ANY (ARRAY['recorded'::text, 'void'::text]))),
  CONSTRAINT estimated_tax_payments_tax_year_check CHECK (((tax_year >= 2000) AND (tax_year <= 2100)))
);
CREATE INDEX estimated_tax_payments_by_year ON estimated_tax_payments USING btree (company_id, tax_year, quarter);

CREATE TABLE estimated_tax_plans (
  company_id uuid NOT NULL,
  tax_year integer NOT NULL,
  inputs jsonb NOT NULL,
  saved_by text NOT NULL,
  saved_at timestamp with time zone NOT NULL,
  CONSTRAINT estimated_tax_plans_pkey PRIMARY KEY (company_id, tax_year),
  CONSTRAINT estimated_tax_plans_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT estimated_tax_plans_tax_year_check CHECK (((tax_year >= 2000) AND (tax_year <= 2100)))
);

CREATE TABLE estimated_tax_reminders (
  company_id uuid NOT NULL,
  tax_year integer NOT NULL,
  quarter integer NOT NULL,
  due_date date NOT NULL,
  remaining_cents bigint NOT NULL,
  recipient_count integer NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 1,
  claimed_by text NOT NULL,
  claimed_at timestamp with time zone NOT NULL,
  sent_at timestamp with time zone,
  provider_message_id text,
  last_error text,
  CONSTRAINT estimated_tax_reminders_pkey PRIMARY KEY (company_id, tax_year, quarter),
  CONSTRAINT estimated_tax_reminders_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT estimated_tax_reminders_attempts_check CHECK (((attempts >= 1) AND (attempts <= 10))),
  CONSTRAINT estimated_tax_reminders_quarter_check CHECK (((quarter >= 1) AND (quarter <= 4))),
  CONSTRAINT estimated_tax_reminders_recipient_count_check CHECK (((recipient_count >= 1) AND (recipient_count <= 50))),
  CONSTRAINT estimated_tax_reminders_remaining_cents_check CHECK ((remaining_cents >= 0)),
  CONSTRAINT estimated_tax_reminders_status_check CHECK ((status = ANY (ARRAY['sending'::text, 'sent'::text, 'failed'::text]))),
  CONSTRAINT estimated_tax_reminders_tax_year_check CHECK (((tax_year >= 2000) AND (tax_year <= 2100)))
);

CREATE TABLE estimates (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  contact_id bigint NOT NULL,
  number text NOT NULL,
  estimate_date date NOT NULL,
  expiry_date date,
  reference text,
  memo text,
  tax_rate_id bigint,
  lines jsonb NOT NULL,
  tax_lines jsonb NOT NULL,
  subtotal_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  total_cents bigint NOT NULL,
  status text NOT NULL,
  status_reason text,
  invoice_id bigint,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT estimates_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT estimates_company_id_number_key UNIQUE (company_id, number),
  CONSTRAINT estimates_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT estimates_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT estimates_company_id_invoice_id_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES documents(company_id, id),
  CONSTRAINT estimates_company_id_tax_rate_id_fkey FOREIGN KEY (company_id, tax_rate_id) REFERENCES tax_rates(company_id, id),
  CONSTRAINT estimates_check CHECK (((status = 'converted'::text) = (invoice_id IS NOT NULL))),
  CONSTRAINT estimates_number_check CHECK (((length(number) >= 1) AND (length(number) <= 40))),
  CONSTRAINT estimates_status_check CHECK ((status = ANY (ARRAY['open'::text, 'accepted'::text, 'declined'::text, 'converted'::text, 'void'::text])))
);

CREATE TABLE firm_agent_assignments (
  company_id uuid NOT NULL,
  firm_agent_id bigint NOT NULL,
  firm_id bigint NOT NULL,
  posting_threshold_cents bigint NOT NULL,
  scopes jsonb,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT firm_agent_assignments_pkey PRIMARY KEY (company_id, firm_agent_id),
  CONSTRAINT firm_agent_assignments_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT firm_agent_assignments_firm_id_firm_agent_id_fkey FOREIGN KEY (firm_id, firm_agent_id) REFERENCES firm_agents(firm_id, id),
  CONSTRAINT firm_agent_assignments_posting_threshold_cents_check CHECK ((posting_threshold_cents >= 0))
);
CREATE INDEX firm_agent_assignments_by_agent ON firm_agent_assignments USING btree (firm_id, firm_agent_id);

CREATE TABLE firm_agents (
  firm_id bigint NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  scopes jsonb NOT NULL,
  status text NOT NULL DEFAULT 'active'::text,
  revoked_at timestamp with time zone,
  revoked_reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT firm_agents_pkey PRIMARY KEY (firm_id, id),
  CONSTRAINT firm_agents_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT firm_agents_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT firm_agents_status_check CHECK ((status = ANY (ARRAY['active'::text, 'revoked'::text])))
);

CREATE TABLE firm_audit_events (
  firm_id bigint NOT NULL,
  seq bigint NOT NULL,
  occurred_at timestamp with time zone NOT NULL,
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
  CONSTRAINT firm_audit_events_pkey PRIMARY KEY (firm_id, seq),
  CONSTRAINT firm_audit_events_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id)
);
CREATE TRIGGER firm_audit_events_append_only BEFORE DELETE OR UPDATE ON firm_audit_events FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER firm_audit_events_no_truncate BEFORE TRUNCATE ON firm_audit_events FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

CREATE TABLE firm_grants (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  firm_id bigint NOT NULL,
  scopes jsonb NOT NULL,
  billing text NOT NULL,
  reason text,
  granted_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  revoked_reason text,
  revoked_by text,
  CONSTRAINT firm_grants_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT firm_grants_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT firm_grants_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT firm_grants_billing_check CHECK ((billing = ANY (ARRAY['firm'::text, 'client'::text]))),
  CONSTRAINT firm_grants_check CHECK (((revoked_at IS NULL) = (revoked_reason IS NULL)))
);
CREATE INDEX firm_grants_by_firm ON firm_grants USING btree (firm_id, company_id) WHERE (revoked_at IS NULL);
CREATE UNIQUE INDEX firm_grants_live ON firm_grants USING btree (company_id, firm_id) WHERE (revoked_at IS NULL);

CREATE TABLE firm_keys (
  firm_id bigint NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  principal_type text NOT NULL,
  member_id bigint,
  firm_agent_id bigint,
  scopes jsonb NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  last_used_at timestamp with time zone,
  rate_limit_rpm integer,
  rotated_from_key_id bigint,
  rotated_to_key_id bigint,
  overlap_ends_at timestamp with time zone,
  revoked_at timestamp with time zone,
  revoked_reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT firm_keys_pkey PRIMARY KEY (firm_id, id),
  CONSTRAINT firm_keys_firm_id_firm_agent_id_fkey FOREIGN KEY (firm_id, firm_agent_id) REFERENCES firm_agents(firm_id, id),
  CONSTRAINT firm_keys_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT firm_keys_firm_id_member_id_fkey FOREIGN KEY (firm_id, member_id) REFERENCES firm_members(firm_id, id),
  CONSTRAINT firm_keys_check CHECK (((principal_type = 'member'::text) = (member_id IS NOT NULL))),
  CONSTRAINT firm_keys_check1 CHECK (((principal_type = 'agent'::text) = (firm_agent_id IS NOT NULL))),
  CONSTRAINT firm_keys_principal_type_check CHECK ((principal_type = ANY (ARRAY['member'::text, 'agent'::text]))),
  CONSTRAINT firm_keys_rate_limit_rpm_check CHECK ((rate_limit_rpm > 0))
);
CREATE UNIQUE INDEX firm_keys_secret_hash ON firm_keys USING btree (secret_hash);

CREATE TABLE firm_members (
  firm_id bigint NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  email text,
  role text NOT NULL,
  status text NOT NULL DEFAULT 'active'::text,
  removed_at timestamp with time zone,
  removed_reason text,
  created_at timestamp with time zone NOT NULL,
  email_verified_at timestamp with time zone,
  CONSTRAINT firm_members_pkey PRIMARY KEY (firm_id, id),
  CONSTRAINT firm_members_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT firm_members_check CHECK (((status = 'removed'::text) = (removed_at IS NOT NULL))),
  CONSTRAINT firm_members_email_check CHECK ((length(email) <= 320)),
  CONSTRAINT firm_members_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT firm_members_role_check CHECK ((role = ANY (ARRAY['admin'::text, 'cpa'::text, 'bookkeeper'::text]))),
  CONSTRAINT firm_members_status_check CHECK ((status = ANY (ARRAY['active'::text, 'removed'::text])))
);
CREATE INDEX firm_members_email ON firm_members USING btree (lower(email)) WHERE ((email IS NOT NULL) AND (status = 'active'::text));

CREATE TABLE firm_sessions (
  firm_id bigint NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  member_id bigint NOT NULL,
  key_id bigint,
  scopes jsonb NOT NULL,
  via text NOT NULL,
  last_seen_at timestamp with time zone NOT NULL,
  idle_expires_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  revoked_reason text,
  created_at timestamp with time zone NOT NULL,
  stepped_up_at timestamp with time zone,
  sign_in_method text,
  CONSTRAINT firm_sessions_pkey PRIMARY KEY (firm_id, id),
  CONSTRAINT firm_sessions_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT firm_sessions_firm_id_key_id_fkey FOREIGN KEY (firm_id, key_id) REFERENCES firm_keys(firm_id, id),
  CONSTRAINT firm_sessions_firm_id_member_id_fkey FOREIGN KEY (firm_id, member_id) REFERENCES firm_members(firm_id, id),
  CONSTRAINT firm_sessions_via_check CHECK ((via = ANY (ARRAY['key'::text, 'sign_in'::text])))
);
CREATE UNIQUE INDEX firm_sessions_secret_hash ON firm_sessions USING btree (secret_hash);

CREATE TABLE firms (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  rate_limit_rpm integer,
  kill_switch_suspended boolean NOT NULL DEFAULT false,
  kill_switch_reason text,
  kill_switch_changed_at timestamp with time zone,
  audit_seq bigint NOT NULL DEFAULT 0,
  audit_head text NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000'::text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT firms_pkey PRIMARY KEY (id),
  CONSTRAINT firms_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT firms_rate_limit_rpm_check CHECK ((rate_limit_rpm > 0))
);

CREATE TABLE idempotency_records (
  scope uuid NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  status integer NOT NULL,
  request_hash bytea NOT NULL,
  answer bytea,
  body json,
  CONSTRAINT idempotency_records_pkey PRIMARY KEY (scope),
  CONSTRAINT idempotency_records_one_answer CHECK (((body IS NULL) <> (answer IS NULL))),
  CONSTRAINT idempotency_records_request_hash_check CHECK ((length(request_hash) = 16))
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records USING btree (expires_at);

CREATE TABLE integration_connections (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  provider text NOT NULL,
  status text NOT NULL,
  state_hash text,
  code_verifier text,
  consent_expires_at timestamp with time zone,
  external_account_id text,
  account_name text,
  access_token_sealed text,
  agent_id bigint,
  clearing_account text,
  payout_account text,
  posting_threshold_cents bigint NOT NULL DEFAULT 0,
  mapping_approved_at timestamp with time zone,
  mapping_approved_by text,
  mapping_note text,
  sync_cursor text,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  disconnected_at timestamp with time zone,
  disconnect_reason text,
  sync_interval_minutes integer NOT NULL DEFAULT 60,
  next_sync_at timestamp with time zone,
  last_error text,
  last_error_at timestamp with time zone,
  provider_balance_cents bigint,
  provider_balance_at timestamp with time zone,
  CONSTRAINT integration_connections_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT integration_connections_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT integration_connections_last_error_check CHECK ((length(last_error) <= 2000)),
  CONSTRAINT integration_connections_posting_threshold_cents_check CHECK ((posting_threshold_cents >= 0)),
  CONSTRAINT integration_connections_provider_balance_cents_check CHECK (((provider_balance_cents >= '-9007199254740991'::bigint) AND (provider_balance_cents <= '9007199254740991'::bigint))),
  CONSTRAINT integration_connections_provider_check CHECK ((provider ~ '^provider_[a-z]$'::text)),
  CONSTRAINT integration_connections_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'connected'::text, 'paused'::text, 'disconnected'::text]))),
  CONSTRAINT integration_connections_sync_interval_minutes_check CHECK (((sync_interval_minutes >= 15) AND (sync_interval_minutes <= 1440)))
);
CREATE INDEX integration_connections_due ON integration_connections USING btree (next_sync_at) WHERE (status = 'connected'::text);
CREATE UNIQUE INDEX integration_connections_state ON integration_connections USING btree (state_hash) WHERE (state_hash IS NOT NULL);

CREATE TABLE integration_mappings (
  company_id uuid NOT NULL,
  connection_id bigint NOT NULL,
  kind text NOT NULL,
  source_key text NOT NULL,
  account_code text,
  class_name text,
  project_name text,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT integration_mappings_pkey PRIMARY KEY (company_id, connection_id, kind, source_key),
  CONSTRAINT integration_mappings_company_id_connection_id_fkey FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections(company_id, id),
  CONSTRAINT integration_mappings_kind_check CHECK ((kind = ANY (ARRAY['category'::text, 'product'::text, 'discount'::text, 'shipping'::text, 'tax'::text, 'tip'::text, 'fee'::text, 'refund'::text, 'payout'::text]))),
  CONSTRAINT integration_mappings_source_key_check CHECK (((length(source_key) >= 1) AND (length(source_key) <= 200)))
);

CREATE TABLE integration_objects (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  connection_id bigint NOT NULL,
  provider text NOT NULL,
  external_account_id text NOT NULL,
  external_id text NOT NULL,
  type text NOT NULL,
  version text NOT NULL,
  date date NOT NULL,
  total_cents bigint NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL,
  entry_id bigint,
  proposal_id bigint,
  note text,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT integration_objects_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT integration_objects_company_id_provider_external_account_id_key UNIQUE (company_id, provider, external_account_id, external_id),
  CONSTRAINT integration_objects_company_id_connection_id_fkey FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections(company_id, id),
  CONSTRAINT integration_objects_status_check CHECK ((status = ANY (ARRAY['posted'::text, 'proposed'::text, 'pending'::text, 'needs_review'::text, 'skipped'::text, 'rejected'::text])))
);
CREATE INDEX integration_objects_status ON integration_objects USING btree (company_id, connection_id, status, id DESC);

CREATE TABLE integration_sync_runs (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  connection_id bigint NOT NULL,
  status text NOT NULL,
  trigger text NOT NULL,
  counts jsonb NOT NULL,
  errors jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamp with time zone NOT NULL,
  finished_at timestamp with time zone,
  CONSTRAINT integration_sync_runs_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT integration_sync_runs_company_id_connection_id_fkey FOREIGN KEY (company_id, connection_id) REFERENCES integration_connections(company_id, id),
  CONSTRAINT integration_sync_runs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text]))),
  CONSTRAINT integration_sync_runs_trigger_check CHECK ((trigger = ANY (ARRAY['request'::text, 'schedule'::text])))
);
CREATE INDEX integration_sync_runs_connection ON integration_sync_runs USING btree (company_id, connection_id, id DESC);

CREATE TABLE items (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  kind text NOT NULL,
  description text,
  sales_price_cents bigint,
  purchase_cost_cents bigint,
  income_account text,
  expense_account text,
  taxable boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT items_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT items_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT items_kind_check CHECK ((kind = ANY (ARRAY['service'::text, 'non_inventory'::text]))),
  CONSTRAINT items_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT items_purchase_cost_cents_check CHECK ((purchase_cost_cents >= 0)),
  CONSTRAINT items_sales_price_cents_check CHECK ((sales_price_cents >= 0))
);

CREATE TABLE jobs (
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  company_id uuid,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  unique_key text,
  status text NOT NULL DEFAULT 'pending'::text,
  run_at timestamp with time zone NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  locked_by text,
  locked_until timestamp with time zone,
  last_error text,
  created_at timestamp with time zone NOT NULL,
  finished_at timestamp with time zone,
  CONSTRAINT jobs_pkey PRIMARY KEY (id),
  CONSTRAINT jobs_max_attempts_check CHECK ((max_attempts >= 1)),
  CONSTRAINT jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'done'::text, 'failed'::text])))
);
CREATE INDEX jobs_due ON jobs USING btree (run_at) WHERE (status = ANY (ARRAY['pending'::text, 'running'::text]));
CREATE UNIQUE INDEX jobs_unique_live ON jobs USING btree (unique_key) WHERE ((unique_key IS NOT NULL) AND (status = ANY (ARRAY['pending'::text, 'running'::text])));

CREATE TABLE journal_entries (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  entry_date date NOT NULL,
  memo text,
  total_cents bigint NOT NULL,
  source_kind text NOT NULL,
  source_id bigint,
  reverses_entry_id bigint,
  proposal_id bigint,
  soft_lock_override_reason text,
  confidence double precision,
  posted_by_type text NOT NULL,
  posted_by_id bigint,
  posted_by_name text,
  agent_model text,
  posted_at timestamp with time zone NOT NULL,
  CONSTRAINT journal_entries_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT journal_entries_company_id_reverses_entry_id_fkey FOREIGN KEY (company_id, reverses_entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT journal_entries_confidence_check CHECK (((confidence >= (0)::double precision) AND (confidence <= (1)::double precision))),
  CONSTRAINT journal_entries_total_cents_check CHECK ((total_cents > 0))
);
CREATE INDEX journal_entries_by_date ON journal_entries USING btree (company_id, entry_date);
CREATE UNIQUE INDEX journal_entries_reversal ON journal_entries USING btree (company_id, reverses_entry_id) WHERE (reverses_entry_id IS NOT NULL);
CREATE TRIGGER journal_entries_checked AFTER INSERT ON journal_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_statement_checked();
CREATE TRIGGER journal_entries_immutable BEFORE DELETE OR UPDATE ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER journal_entries_period BEFORE INSERT ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_period();

CREATE TABLE journal_entry_checks (
  company_id uuid NOT NULL,
  entry_id bigint NOT NULL
);
CREATE CONSTRAINT TRIGGER journal_entry_checks_committed AFTER INSERT ON journal_entry_checks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_check_committed();

CREATE TABLE journal_lines (
  company_id uuid NOT NULL,
  entry_id bigint NOT NULL,
  account_id bigint NOT NULL,
  amount_cents bigint NOT NULL,
  class_id bigint,
  contact_id bigint,
  entry_date date NOT NULL,
  line_no integer NOT NULL,
  memo text,
  CONSTRAINT journal_lines_company_id_class_id_fkey FOREIGN KEY (company_id, class_id) REFERENCES classes(company_id, id),
  CONSTRAINT journal_lines_amount_cents_check CHECK (((amount_cents <> 0) AND (abs(amount_cents) <= '1000000000000000'::bigint))),
  CONSTRAINT journal_lines_line_no_check CHECK (((line_no >= 1) AND (line_no <= 500)))
);
CREATE INDEX journal_lines_by_account ON journal_lines USING btree (company_id, account_id, entry_date);
CREATE INDEX journal_lines_by_entry ON journal_lines USING btree (company_id, entry_id);
CREATE TRIGGER journal_lines_checked AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_statement_checked();
CREATE TRIGGER journal_lines_immutable BEFORE DELETE OR UPDATE ON journal_lines FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON journal_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER journal_lines_period AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_period();
CREATE TRIGGER journal_lines_totals AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_totals();

CREATE TABLE ledger_migrations (
  id integer NOT NULL,
  name text NOT NULL,
  applied_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT ledger_migrations_pkey PRIMARY KEY (id)
);

CREATE TABLE migration_connections (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  source text NOT NULL,
  status text NOT NULL,
  as_of date NOT NULL,
  include_tax_ids boolean NOT NULL DEFAULT false,
  password_hash text,
  download_token_hash text,
  failed_password_attempts integer NOT NULL DEFAULT 0,
  ticket_hash text,
  last_error text,
  company_file text,
  state_hash text,
  consent_expires_at timestamp with time zone,
  realm_id text,
  access_token_sealed text,
  progress jsonb NOT NULL DEFAULT '{}'::jsonb,
  estimate jsonb,
  extracted jsonb,
  tieout jsonb,
  expires_at timestamp with time zone NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  revoke_reason text,
  user_name text,
  CONSTRAINT migration_connections_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT migration_connections_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT migration_connections_source_check CHECK ((source = ANY (ARRAY['desktop'::text, 'online'::text]))),
  CONSTRAINT migration_connections_user_name_desktop CHECK (((source = 'desktop'::text) = (user_name IS NOT NULL))),
  CONSTRAINT migration_connections_user_name_length CHECK ((length(user_name) <= 100))
);
CREATE UNIQUE INDEX migration_connections_state ON migration_connections USING btree (state_hash) WHERE (state_hash IS NOT NULL);
CREATE UNIQUE INDEX migration_connections_ticket ON migration_connections USING btree (ticket_hash) WHERE (ticket_hash IS NOT NULL);
CREATE UNIQUE INDEX migration_connections_user_name ON migration_connections USING btree (user_name) WHERE (user_name IS NOT NULL);

CREATE TABLE migration_imports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  connection_id bigint NOT NULL,
  source text NOT NULL,
  status text NOT NULL,
  result text NOT NULL,
  entries integer NOT NULL,
  differences jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  cut_over_at timestamp with time zone,
  CONSTRAINT migration_imports_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT migration_imports_company_id_connection_id_fkey FOREIGN KEY (company_id, connection_id) REFERENCES migration_connections(company_id, id),
  CONSTRAINT migration_imports_result_check CHECK ((result = ANY (ARRAY['PASS'::text, 'FAIL'::text]))),
  CONSTRAINT migration_imports_source_check CHECK ((source = ANY (ARRAY['desktop'::text, 'online'::text]))),
  CONSTRAINT migration_imports_status_check CHECK ((status = ANY (ARRAY['imported'::text, 'failed'::text, 'cut_over'::text])))
);
CREATE UNIQUE INDEX migration_imports_one_pass ON migration_imports USING btree (company_id, connection_id) WHERE (result = 'PASS'::text);

CREATE TABLE migration_staged (
  company_id uuid NOT NULL,
  connection_id bigint NOT NULL,
  entity text NOT NULL,
  source_id text NOT NULL,
  record jsonb NOT NULL,
  CONSTRAINT migration_staged_pkey PRIMARY KEY (company_id, connection_id, entity, source_id),
  CONSTRAINT migration_staged_company_id_connection_id_fkey FOREIGN KEY (company_id, connection_id) REFERENCES migration_connections(company_id, id)
);

CREATE TABLE migration_usage (
  month text NOT NULL,
  reads integer NOT NULL DEFAULT 0,
  CONSTRAINT migration_usage_pkey PRIMARY KEY (month)
);

CREATE TABLE mileage_reimbursements (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  vehicle_id bigint NOT NULL,
  payee text NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  business_tenths integer NOT NULL,
  amount_cents bigint NOT NULL,
  rates jsonb NOT NULL,
  expense_account text NOT NULL,
  pay_from_account text NOT NULL,
  entry_date date NOT NULL,
  entry_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'posted'::text,
  void_entry_id bigint,
  void_reason text,
  voided_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT mileage_reimbursements_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT mileage_reimbursements_company_id_vehicle_id_fkey FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles(company_id, id),
  CONSTRAINT mileage_reimbursements_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT mileage_reimbursements_business_tenths_check CHECK ((business_tenths > 0)),
  CONSTRAINT mileage_reimbursements_check CHECK ((period_end >= period_start)),
  CONSTRAINT mileage_reimbursements_payee_check CHECK (((length(payee) >= 1) AND (length(payee) <= 200))),
  CONSTRAINT mileage_reimbursements_status_check CHECK ((status = ANY (ARRAY['posted'::text, 'void'::text])))
);

CREATE TABLE number_counters (
  company_id uuid NOT NULL,
  prefix text NOT NULL,
  last_value bigint NOT NULL,
  CONSTRAINT number_counters_pkey PRIMARY KEY (company_id, prefix),
  CONSTRAINT number_counters_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT number_counters_last_value_check CHECK ((last_value >= 0))
);

CREATE TABLE oauth_clients (
  client_id text NOT NULL,
  client_name text,
  redirect_uris jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamp with time zone NOT NULL,
  document_fetched_at timestamp with time zone,
  document_expires_at timestamp with time zone,
  CONSTRAINT oauth_clients_pkey PRIMARY KEY (client_id),
  CONSTRAINT oauth_clients_client_name_length CHECK ((length(client_name) <= 200))
);
CREATE INDEX oauth_clients_registered ON oauth_clients USING btree (created_at) WHERE (document_fetched_at IS NULL);

CREATE TABLE oauth_codes (
  code_hash text NOT NULL,
  connection_id bigint NOT NULL,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  CONSTRAINT oauth_codes_pkey PRIMARY KEY (code_hash),
  CONSTRAINT oauth_codes_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES ai_connections(id)
);

CREATE TABLE oauth_tokens (
  token_hash text NOT NULL,
  kind text NOT NULL,
  connection_id bigint NOT NULL,
  family text NOT NULL,
  client_id text NOT NULL,
  resource text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  CONSTRAINT oauth_tokens_pkey PRIMARY KEY (token_hash),
  CONSTRAINT oauth_tokens_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES ai_connections(id),
  CONSTRAINT oauth_tokens_kind_check CHECK ((kind = ANY (ARRAY['access'::text, 'refresh'::text])))
);
CREATE INDEX oauth_tokens_connection ON oauth_tokens USING btree (connection_id);
CREATE INDEX oauth_tokens_family ON oauth_tokens USING btree (family);

CREATE TABLE online_charges (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  document_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  method text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  amount_cents bigint NOT NULL,
  fee_cents bigint,
  processor_payment_id text NOT NULL,
  paid_on date,
  payment_id bigint,
  fee_entry_id bigint,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT online_charges_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT online_charges_processor_payment_id_key UNIQUE (processor_payment_id),
  CONSTRAINT online_charges_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT online_charges_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT online_charges_fee_cents_check CHECK ((fee_cents >= 0)),
  CONSTRAINT online_charges_method_check CHECK ((method = ANY (ARRAY['card'::text, 'ach'::text, 'stablecoin'::text]))),
  CONSTRAINT online_charges_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))
);
CREATE INDEX online_charges_document ON online_charges USING btree (company_id, document_id, id);

CREATE TABLE online_disputes (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  charge_id bigint NOT NULL,
  processor_dispute_id text NOT NULL,
  amount_cents bigint NOT NULL,
  fee_cents bigint NOT NULL,
  status text NOT NULL,
  entry_id bigint,
  close_entry_id bigint,
  CONSTRAINT online_disputes_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT online_disputes_processor_dispute_id_key UNIQUE (processor_dispute_id),
  CONSTRAINT online_disputes_company_id_charge_id_fkey FOREIGN KEY (company_id, charge_id) REFERENCES online_charges(company_id, id),
  CONSTRAINT online_disputes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT online_disputes_status_check CHECK ((status = ANY (ARRAY['open'::text, 'won'::text, 'lost'::text])))
);

CREATE TABLE online_pay_links (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  document_id bigint NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT online_pay_links_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT online_pay_links_token_hash_key UNIQUE (token_hash),
  CONSTRAINT online_pay_links_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);
CREATE INDEX online_pay_links_document ON online_pay_links USING btree (company_id, document_id);

CREATE TABLE online_payment_events (
  event_id text NOT NULL,
  company_id uuid,
  type text NOT NULL,
  received_at timestamp with time zone NOT NULL,
  CONSTRAINT online_payment_events_pkey PRIMARY KEY (event_id),
  CONSTRAINT online_payment_events_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE online_payment_settings (
  company_id uuid NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  accept_card boolean NOT NULL DEFAULT true,
  accept_ach boolean NOT NULL DEFAULT false,
  accept_stablecoin boolean NOT NULL DEFAULT false,
  allow_partial boolean NOT NULL DEFAULT false,
  clearing_account text NOT NULL DEFAULT '1150'::text,
  fees_account text NOT NULL DEFAULT '6010'::text,
  refunds_account text NOT NULL DEFAULT '4900'::text,
  chargebacks_account text NOT NULL DEFAULT '6010'::text,
  payout_bank_account_id bigint,
  processor_account_id text,
  charges_enabled boolean NOT NULL DEFAULT false,
  payouts_enabled boolean NOT NULL DEFAULT false,
  details_submitted boolean NOT NULL DEFAULT false,
  updated_at timestamp with time zone,
  CONSTRAINT online_payment_settings_pkey PRIMARY KEY (company_id),
  CONSTRAINT online_payment_settings_processor_account_id_key UNIQUE (processor_account_id),
  CONSTRAINT online_payment_settings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE online_payouts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  processor_payout_id text NOT NULL,
  amount_cents bigint NOT NULL,
  arrival_date date NOT NULL,
  status text NOT NULL,
  entry_id bigint,
  bank_line_id bigint,
  lines jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT online_payouts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT online_payouts_processor_payout_id_key UNIQUE (processor_payout_id),
  CONSTRAINT online_payouts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT online_payouts_status_check CHECK ((status = ANY (ARRAY['paid'::text, 'failed'::text])))
);

CREATE TABLE online_refunds (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  charge_id bigint NOT NULL,
  processor_refund_id text NOT NULL,
  amount_cents bigint NOT NULL,
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  entry_id bigint,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT online_refunds_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT online_refunds_processor_refund_id_key UNIQUE (processor_refund_id),
  CONSTRAINT online_refunds_company_id_charge_id_fkey FOREIGN KEY (company_id, charge_id) REFERENCES online_charges(company_id, id),
  CONSTRAINT online_refunds_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT online_refunds_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT online_refunds_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))
);

CREATE TABLE operator_credentials (
  id integer NOT NULL,
  token_hash text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT operator_credentials_pkey PRIMARY KEY (id),
  CONSTRAINT operator_credentials_id_check CHECK ((id = 1))
);

CREATE TABLE outbox_events (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamp with time zone NOT NULL,
  CONSTRAINT outbox_events_pkey PRIMARY KEY (company_id, id)
);
CREATE INDEX outbox_events_by_type ON outbox_events USING btree (company_id, event_type, id);
CREATE INDEX outbox_events_occurred ON outbox_events USING btree (occurred_at);
CREATE TRIGGER outbox_events_fan_out AFTER INSERT ON outbox_events FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();

CREATE TABLE owner_invitations (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  firm_id bigint NOT NULL,
  user_id bigint NOT NULL,
  owner_email text,
  secret_hash text NOT NULL,
  prefix text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  expires_at timestamp with time zone NOT NULL,
  claimed_at timestamp with time zone,
  ended_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT owner_invitations_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT owner_invitations_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT owner_invitations_company_id_user_id_fkey FOREIGN KEY (company_id, user_id) REFERENCES users(company_id, id),
  CONSTRAINT owner_invitations_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES firms(id),
  CONSTRAINT owner_invitations_check CHECK (((status = 'claimed'::text) = (claimed_at IS NOT NULL))),
  CONSTRAINT owner_invitations_owner_email_check CHECK ((length(owner_email) <= 320)),
  CONSTRAINT owner_invitations_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'claimed'::text, 'replaced'::text, 'void'::text])))
);
CREATE UNIQUE INDEX owner_invitations_one_pending ON owner_invitations USING btree (company_id) WHERE (status = 'pending'::text);
CREATE UNIQUE INDEX owner_invitations_secret_hash ON owner_invitations USING btree (secret_hash);

CREATE TABLE payments (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  direction text NOT NULL,
  contact_id bigint NOT NULL,
  payment_date date NOT NULL,
  account text NOT NULL,
  control_account text NOT NULL,
  amount_cents bigint NOT NULL,
  number text,
  reference text,
  memo text,
  bank_line_id bigint,
  entry_id bigint NOT NULL,
  voided boolean NOT NULL DEFAULT false,
  void_entry_id bigint,
  void_reason text,
  void_date date,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT payments_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT payments_company_id_entry_id_key UNIQUE (company_id, entry_id),
  CONSTRAINT payments_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT payments_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT payments_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT payments_direction_check CHECK ((direction = ANY (ARRAY['received'::text, 'made'::text])))
);
CREATE INDEX payments_by_contact ON payments USING btree (company_id, contact_id, payment_date);

CREATE TABLE payroll_import_rows (
  company_id uuid NOT NULL,
  import_id bigint NOT NULL,
  line_no integer NOT NULL,
  employee text NOT NULL,
  amounts jsonb NOT NULL,
  CONSTRAINT payroll_import_rows_pkey PRIMARY KEY (company_id, import_id, line_no),
  CONSTRAINT payroll_import_rows_company_id_import_id_fkey FOREIGN KEY (company_id, import_id) REFERENCES payroll_imports(company_id, id),
  CONSTRAINT payroll_import_rows_employee_check CHECK (((length(employee) >= 1) AND (length(employee) <= 200))),
  CONSTRAINT payroll_import_rows_line_no_check CHECK ((line_no >= 2))
);

CREATE TABLE payroll_imports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  tax_year integer NOT NULL,
  provider text NOT NULL,
  period_through date NOT NULL,
  switch_id bigint,
  columns jsonb NOT NULL,
  employee_count integer NOT NULL,
  totals jsonb NOT NULL,
  gross_wages_cents bigint NOT NULL,
  status text NOT NULL DEFAULT 'imported'::text,
  summary_entry_id bigint,
  void_entry_id bigint,
  void_reason text,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT payroll_imports_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT payroll_imports_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT payroll_imports_check CHECK ((EXTRACT(year FROM period_through) = (tax_year)::numeric)),
  CONSTRAINT payroll_imports_employee_count_check CHECK ((employee_count >= 1)),
  CONSTRAINT payroll_imports_gross_wages_cents_check CHECK ((gross_wages_cents >= 0)),
  CONSTRAINT payroll_imports_provider_check CHECK (((length(provider) >= 1) AND (length(provider) <= 60))),
  CONSTRAINT payroll_imports_status_check CHECK ((status = ANY (ARRAY['imported'::text, 'void'::text]))),
  CONSTRAINT payroll_imports_tax_year_check CHECK (((tax_year >= 2000) AND (tax_year <= 2100)))
);
CREATE INDEX payroll_imports_by_year ON payroll_imports USING btree (company_id, tax_year, id);

CREATE TABLE periods (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  start_date date NOT NULL,
  end_date date NOT NULL,
  status text NOT NULL DEFAULT 'open'::text,
  status_reason text,
  status_changed_at timestamp with time zone,
  status_changed_by text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT periods_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT periods_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT periods_check CHECK (((end_date >= start_date) AND ((end_date - start_date) < 366))),
  CONSTRAINT periods_status_check CHECK ((status = ANY (ARRAY['open'::text, 'soft_locked'::text, 'hard_locked'::text])))
);
CREATE INDEX periods_by_date ON periods USING btree (company_id, start_date, end_date);
CREATE TRIGGER periods_guard BEFORE DELETE OR UPDATE ON periods FOR EACH ROW EXECUTE FUNCTION ledger_periods_guard();

CREATE TABLE proposals (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  summary text NOT NULL,
  amount_cents bigint NOT NULL,
  entry_date date NOT NULL,
  entry jsonb NOT NULL,
  request jsonb NOT NULL,
  reasons jsonb NOT NULL,
  soft_lock_override_reason text,
  confidence double precision,
  created_by_type text NOT NULL,
  created_by_id bigint,
  created_by_name text,
  agent_model text,
  agent_run_id text,
  created_at timestamp with time zone NOT NULL,
  decided_by_type text,
  decided_by_id bigint,
  decided_by_name text,
  decided_at timestamp with time zone,
  decision_reason text,
  entry_id bigint,
  reverses_entry_id bigint,
  CONSTRAINT proposals_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT proposals_company_id_entry_id_fkey FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT proposals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT proposals_company_id_reverses_entry_id_fkey FOREIGN KEY (company_id, reverses_entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT proposals_amount_cents_check CHECK ((amount_cents >= 0)),
  CONSTRAINT proposals_check CHECK (((status = 'pending'::text) = (decided_at IS NULL))),
  CONSTRAINT proposals_check1 CHECK (((status <> 'approved'::text) OR (entry_id IS NOT NULL))),
  CONSTRAINT proposals_check2 CHECK (((status <> 'rejected'::text) OR (decision_reason IS NOT NULL))),
  CONSTRAINT proposals_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text])))
);
CREATE INDEX proposals_by_status ON proposals USING btree (company_id, status, id);

CREATE TABLE receipt_blob_parts (
  company_id uuid NOT NULL,
  blob_key text NOT NULL,
  part integer NOT NULL,
  bytes bytea NOT NULL,
  CONSTRAINT receipt_blob_parts_pkey PRIMARY KEY (company_id, blob_key, part),
  CONSTRAINT receipt_blob_parts_company_id_blob_key_fkey FOREIGN KEY (company_id, blob_key) REFERENCES receipt_blobs(company_id, blob_key) ON DELETE CASCADE,
  CONSTRAINT receipt_blob_parts_part_check CHECK ((part >= 1))
);

CREATE TABLE receipt_blobs (
  company_id uuid NOT NULL,
  blob_key text NOT NULL,
  iv bytea NOT NULL,
  ciphertext bytea NOT NULL,
  CONSTRAINT receipt_blobs_pkey PRIMARY KEY (company_id, blob_key),
  CONSTRAINT receipt_blobs_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE receipt_inbox_messages (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  status text NOT NULL,
  sender text NOT NULL,
  recipient text NOT NULL,
  subject text,
  message_id text,
  spf text NOT NULL,
  dkim text NOT NULL,
  dmarc text NOT NULL,
  reasons jsonb NOT NULL DEFAULT '[]'::jsonb,
  attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
  received_at timestamp with time zone NOT NULL,
  decided_at timestamp with time zone,
  decided_by text,
  decision_reason text,
  CONSTRAINT receipt_inbox_messages_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT receipt_inbox_messages_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT receipt_inbox_messages_status_check CHECK ((status = ANY (ARRAY['processed'::text, 'review'::text, 'quarantined'::text, 'rejected'::text, 'duplicate'::text, 'released'::text, 'discarded'::text, 'expired'::text])))
);
CREATE UNIQUE INDEX receipt_inbox_messages_message_id ON receipt_inbox_messages USING btree (company_id, message_id) WHERE ((message_id IS NOT NULL) AND (status <> 'duplicate'::text));
CREATE INDEX receipt_inbox_messages_received ON receipt_inbox_messages USING btree (company_id, received_at);

CREATE TABLE receipt_inbox_refusals (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  address text NOT NULL,
  sender text NOT NULL,
  refused_at timestamp with time zone NOT NULL,
  CONSTRAINT receipt_inbox_refusals_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT receipt_inbox_refusals_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE receipt_inbox_retired (
  token text NOT NULL,
  company_id uuid NOT NULL,
  retired_at timestamp with time zone NOT NULL,
  CONSTRAINT receipt_inbox_retired_pkey PRIMARY KEY (token),
  CONSTRAINT receipt_inbox_retired_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE receipt_inboxes (
  company_id uuid NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  token text NOT NULL,
  slug text,
  previous_slug text,
  previous_slug_until timestamp with time zone,
  allowed_senders jsonb NOT NULL DEFAULT '[]'::jsonb,
  rotated_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT receipt_inboxes_pkey PRIMARY KEY (company_id),
  CONSTRAINT receipt_inboxes_previous_slug_key UNIQUE (previous_slug),
  CONSTRAINT receipt_inboxes_slug_key UNIQUE (slug),
  CONSTRAINT receipt_inboxes_token_key UNIQUE (token),
  CONSTRAINT receipt_inboxes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id)
);

CREATE TABLE receipts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  discarded boolean NOT NULL DEFAULT false,
  discarded_reason text,
  source text NOT NULL,
  file_name text NOT NULL,
  media_type text NOT NULL,
  has_snapshot boolean NOT NULL DEFAULT false,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  note text,
  text_content text,
  vendor text,
  receipt_date date,
  total_cents bigint,
  tax_cents bigint,
  subtotal_cents bigint,
  payment_method text,
  edited_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
  extraction_status text NOT NULL DEFAULT 'none'::text,
  extraction_by text,
  extraction_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
  extraction_message text,
  extracted_at timestamp with time zone,
  bank_line_id bigint,
  document_id bigint,
  entry_id bigint,
  proposal_id bigint,
  inbox_message_id bigint,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT receipts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT receipts_company_id_sha256_key UNIQUE (company_id, sha256),
  CONSTRAINT receipts_company_id_bank_line_id_fkey FOREIGN KEY (company_id, bank_line_id) REFERENCES bank_lines(company_id, id),
  CONSTRAINT receipts_company_id_entry_id_fkey FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT receipts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT receipts_company_id_proposal_id_fkey FOREIGN KEY (company_id, proposal_id) REFERENCES proposals(company_id, id),
  CONSTRAINT receipts_extraction_status_check CHECK ((extraction_status = ANY (ARRAY['none'::text, 'read'::text, 'not_configured'::text, 'failed'::text]))),
  CONSTRAINT receipts_media_type_check CHECK ((media_type = ANY (ARRAY['application/pdf'::text, 'image/jpeg'::text, 'image/png'::text, 'image/heic'::text, 'text/html'::text]))),
  CONSTRAINT receipts_payment_method_check CHECK ((payment_method = ANY (ARRAY['cash'::text, 'card'::text, 'other'::text]))),
  CONSTRAINT receipts_size_bytes_check CHECK ((size_bytes > 0)),
  CONSTRAINT receipts_source_check CHECK ((source = ANY (ARRAY['email'::text, 'upload'::text, 'camera'::text]))),
  CONSTRAINT receipts_subtotal_cents_check CHECK ((subtotal_cents >= 0)),
  CONSTRAINT receipts_tax_cents_check CHECK ((tax_cents >= 0)),
  CONSTRAINT receipts_total_cents_check CHECK ((total_cents >= 0))
);
CREATE INDEX receipts_bank_line ON receipts USING btree (company_id, bank_line_id) WHERE (bank_line_id IS NOT NULL);
CREATE INDEX receipts_newest ON receipts USING btree (company_id, id DESC);

CREATE TABLE reconciliation_items (
  company_id uuid NOT NULL,
  reconciliation_id bigint NOT NULL,
  bank_account_id bigint NOT NULL,
  entry_id bigint NOT NULL,
  entry_date date NOT NULL,
  amount_cents bigint NOT NULL,
  CONSTRAINT reconciliation_items_pkey PRIMARY KEY (company_id, reconciliation_id, entry_id),
  CONSTRAINT reconciliation_items_company_id_entry_id_fkey FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries(company_id, id),
  CONSTRAINT reconciliation_items_company_id_reconciliation_id_fkey FOREIGN KEY (company_id, reconciliation_id) REFERENCES reconciliations(company_id, id)
);
CREATE UNIQUE INDEX reconciliation_items_once ON reconciliation_items USING btree (company_id, bank_account_id, entry_id);
CREATE TRIGGER reconciliation_items_guard BEFORE INSERT OR DELETE OR UPDATE ON reconciliation_items FOR EACH ROW EXECUTE FUNCTION banking_reconciliation_items_guard();

CREATE TABLE reconciliations (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  bank_account_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'in_progress'::text,
  statement_date date NOT NULL,
  beginning_balance_cents bigint NOT NULL,
  statement_ending_balance_cents bigint NOT NULL,
  finished_at timestamp with time zone,
  reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT reconciliations_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT reconciliations_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT reconciliations_check CHECK (((status = ANY (ARRAY['finished'::text, 'undone'::text])) = (finished_at IS NOT NULL))),
  CONSTRAINT reconciliations_check1 CHECK (((status <> ALL (ARRAY['cancelled'::text, 'undone'::text])) OR (reason IS NOT NULL))),
  CONSTRAINT reconciliations_status_check CHECK ((status = ANY (ARRAY['in_progress'::text, 'finished'::text, 'cancelled'::text, 'undone'::text])))
);
CREATE INDEX reconciliations_by_account ON reconciliations USING btree (company_id, bank_account_id, status, statement_date);
CREATE UNIQUE INDEX reconciliations_one_in_progress ON reconciliations USING btree (company_id, bank_account_id) WHERE (status = 'in_progress'::text);
CREATE TRIGGER reconciliations_guard BEFORE DELETE OR UPDATE ON reconciliations FOR EACH ROW EXECUTE FUNCTION banking_reconciliations_guard();

CREATE TABLE recurring_occurrences (
  company_id uuid NOT NULL,
  template_id bigint NOT NULL,
  occurrence_date date NOT NULL,
  status text NOT NULL,
  document_id bigint,
  proposal_id bigint,
  error jsonb,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT recurring_occurrences_pkey PRIMARY KEY (company_id, template_id, occurrence_date),
  CONSTRAINT recurring_occurrences_company_id_document_id_fkey FOREIGN KEY (company_id, document_id) REFERENCES documents(company_id, id),
  CONSTRAINT recurring_occurrences_company_id_template_id_fkey FOREIGN KEY (company_id, template_id) REFERENCES recurring_templates(company_id, id),
  CONSTRAINT recurring_occurrences_status_check CHECK ((status = ANY (ARRAY['posted'::text, 'pending_approval'::text, 'rejected'::text, 'failed'::text])))
);

CREATE TABLE recurring_templates (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  kind text NOT NULL,
  frequency text NOT NULL,
  interval_count integer NOT NULL,
  start_date date NOT NULL,
  end_date date,
  request jsonb NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT recurring_templates_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT recurring_templates_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT recurring_templates_check CHECK (((end_date IS NULL) OR (end_date >= start_date))),
  CONSTRAINT recurring_templates_frequency_check CHECK ((frequency = ANY (ARRAY['weekly'::text, 'monthly'::text, 'quarterly'::text, 'yearly'::text]))),
  CONSTRAINT recurring_templates_interval_count_check CHECK (((interval_count >= 1) AND (interval_count <= 99))),
  CONSTRAINT recurring_templates_kind_check CHECK ((kind = ANY (ARRAY['invoice'::text, 'bill'::text]))),
  CONSTRAINT recurring_templates_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

CREATE TABLE recurring_trips (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  vehicle_id bigint NOT NULL,
  from_place text NOT NULL,
  to_place text NOT NULL,
  miles_tenths integer NOT NULL,
  round_trip boolean NOT NULL,
  purpose text NOT NULL,
  contact_id bigint,
  project_id bigint,
  frequency text NOT NULL,
  weekdays jsonb NOT NULL DEFAULT '[]'::jsonb,
  day_of_month integer,
  start_date date NOT NULL,
  end_date date,
  generated_through date,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT recurring_trips_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT recurring_trips_company_id_vehicle_id_fkey FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles(company_id, id),
  CONSTRAINT recurring_trips_check CHECK (((end_date IS NULL) OR (end_date >= start_date))),
  CONSTRAINT recurring_trips_day_of_month_check CHECK (((day_of_month >= 1) AND (day_of_month <= 28))),
  CONSTRAINT recurring_trips_frequency_check CHECK ((frequency = ANY (ARRAY['weekly'::text, 'monthly'::text]))),
  CONSTRAINT recurring_trips_miles_tenths_check CHECK ((miles_tenths > 0)),
  CONSTRAINT recurring_trips_purpose_check CHECK (((length(purpose) >= 1) AND (length(purpose) <= 500)))
);

CREATE TABLE statement_imports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  bank_account_id bigint NOT NULL,
  format text NOT NULL,
  filename text,
  lines_read integer NOT NULL,
  lines_imported integer NOT NULL,
  duplicates integer NOT NULL,
  first_date date,
  last_date date,
  statement_balance_cents bigint,
  created_by_type text NOT NULL,
  created_by_id bigint,
  created_at timestamp with time zone NOT NULL,
  status text NOT NULL DEFAULT 'imported'::text,
  lines_total integer,
  resume_key text,
  CONSTRAINT statement_imports_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT statement_imports_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT statement_imports_duplicates_check CHECK ((duplicates >= 0)),
  CONSTRAINT statement_imports_format_check CHECK ((format = ANY (ARRAY['ofx'::text, 'qfx'::text, 'csv'::text, 'feed'::text]))),
  CONSTRAINT statement_imports_lines_imported_check CHECK ((lines_imported >= 0)),
  CONSTRAINT statement_imports_lines_read_check CHECK ((lines_read >= 0)),
  CONSTRAINT statement_imports_lines_total_check CHECK ((lines_total >= 0)),
  CONSTRAINT statement_imports_resume_key_check CHECK ((length(resume_key) <= 128)),
  CONSTRAINT statement_imports_status_check CHECK ((status = ANY (ARRAY['importing'::text, 'imported'::text])))
);
CREATE INDEX statement_imports_by_account ON statement_imports USING btree (company_id, bank_account_id, id);
CREATE UNIQUE INDEX statement_imports_resume ON statement_imports USING btree (company_id, resume_key) WHERE ((status = 'importing'::text) AND (resume_key IS NOT NULL));

CREATE TABLE tax_account_boxes (
  company_id uuid NOT NULL,
  account_code text NOT NULL,
  box text NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_account_boxes_pkey PRIMARY KEY (company_id, account_code),
  CONSTRAINT tax_account_boxes_company_id_account_code_fkey FOREIGN KEY (company_id, account_code) REFERENCES accounts(company_id, code),
  CONSTRAINT tax_account_boxes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_account_boxes_box_check CHECK ((box = ANY (ARRAY['NEC1'::text, 'MISC1'::text, 'MISC2'::text, 'MISC3'::text, 'MISC6'::text, 'MISC10'::text])))
);

CREATE TABLE tax_agencies (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  contact_id bigint,
  active boolean NOT NULL DEFAULT true,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_agencies_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_agencies_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT tax_agencies_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_agencies_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

CREATE TABLE tax_exports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  package text NOT NULL,
  return_type text NOT NULL,
  as_of date NOT NULL,
  version integer NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  total_debit_cents bigint NOT NULL,
  total_credit_cents bigint NOT NULL,
  line_count integer NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_exports_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_exports_company_id_package_return_type_as_of_version_key UNIQUE (company_id, package, return_type, as_of, version),
  CONSTRAINT tax_exports_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_exports_package_check CHECK ((package = ANY (ARRAY['generic'::text, 'package_a'::text, 'package_b'::text, 'package_c'::text]))),
  CONSTRAINT tax_exports_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT tax_exports_version_check CHECK ((version >= 1))
);

CREATE TABLE tax_filings (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  year integer NOT NULL,
  provider text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  file_format text NOT NULL,
  threshold_cents bigint NOT NULL,
  contact_ids jsonb NOT NULL,
  corrections jsonb NOT NULL,
  payee_count integer NOT NULL,
  record_count integer NOT NULL,
  total_nec_cents bigint NOT NULL,
  total_misc_cents bigint NOT NULL,
  content_masked text NOT NULL,
  preview_sha256 text NOT NULL,
  file_sealed text NOT NULL,
  file_sha256 text NOT NULL,
  receipt_id text,
  provider_reference text,
  rejected_records jsonb NOT NULL DEFAULT '[]'::jsonb,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  note text,
  decided_by text,
  decided_at timestamp with time zone,
  decision_reason text,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_filings_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_filings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_filings_file_format_check CHECK ((file_format = ANY (ARRAY['fire'::text, 'csv'::text]))),
  CONSTRAINT tax_filings_kind_check CHECK ((kind = ANY (ARRAY['original'::text, 'correction'::text]))),
  CONSTRAINT tax_filings_provider_check CHECK ((provider = ANY (ARRAY['gov_csv'::text, 'gov_a2a'::text, 'partner_mock'::text, 'partner_live'::text]))),
  CONSTRAINT tax_filings_status_check CHECK ((status = ANY (ARRAY['proposed'::text, 'rejected'::text, 'approved'::text, 'failed'::text, 'submitted'::text, 'accepted'::text, 'partially_accepted'::text, 'rejected_by_irs'::text])))
);
CREATE INDEX tax_filings_by_year ON tax_filings USING btree (company_id, year, id);

CREATE TABLE tax_line_mappings (
  company_id uuid NOT NULL,
  return_type text NOT NULL,
  account_code text NOT NULL,
  line_id text NOT NULL,
  source text NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_line_mappings_pkey PRIMARY KEY (company_id, return_type, account_code),
  CONSTRAINT tax_line_mappings_company_id_account_code_fkey FOREIGN KEY (company_id, account_code) REFERENCES accounts(company_id, code),
  CONSTRAINT tax_line_mappings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_line_mappings_line_id_check CHECK (((length(line_id) >= 1) AND (length(line_id) <= 40))),
  CONSTRAINT tax_line_mappings_return_type_check CHECK ((return_type = ANY (ARRAY['1120S'::text, '1065'::text, '1120'::text, 'SCHC'::text]))),
  CONSTRAINT tax_line_mappings_source_check CHECK ((source = ANY (ARRAY['manual'::text, 'default'::text])))
);

CREATE TABLE tax_payers (
  company_id uuid NOT NULL,
  name text NOT NULL,
  name2 text,
  address1 text NOT NULL,
  address2 text,
  city text NOT NULL,
  state text NOT NULL,
  zip text NOT NULL,
  phone text NOT NULL,
  tin_type text NOT NULL,
  tin_sealed text NOT NULL,
  tin_last4 text NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_payers_pkey PRIMARY KEY (company_id),
  CONSTRAINT tax_payers_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_payers_tin_last4_check CHECK ((tin_last4 ~ '^[0-9]{4}$'::text)),
  CONSTRAINT tax_payers_tin_type_check CHECK ((tin_type = ANY (ARRAY['EIN'::text, 'SSN'::text, 'ITIN'::text])))
);

CREATE TABLE tax_prior_amounts (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  year integer NOT NULL,
  contact_id bigint NOT NULL,
  box text NOT NULL,
  amount_cents bigint NOT NULL,
  note text,
  voided boolean NOT NULL DEFAULT false,
  void_reason text,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_prior_amounts_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_prior_amounts_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT tax_prior_amounts_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_prior_amounts_amount_cents_check CHECK ((amount_cents > 0)),
  CONSTRAINT tax_prior_amounts_box_check CHECK ((box = ANY (ARRAY['NEC1'::text, 'MISC1'::text, 'MISC2'::text, 'MISC3'::text, 'MISC6'::text, 'MISC10'::text])))
);
CREATE INDEX tax_prior_amounts_by_year ON tax_prior_amounts USING btree (company_id, year);

CREATE TABLE tax_profiles (
  company_id uuid NOT NULL,
  return_type text NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_profiles_pkey PRIMARY KEY (company_id),
  CONSTRAINT tax_profiles_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_profiles_return_type_check CHECK ((return_type = ANY (ARRAY['1120S'::text, '1065'::text, '1120'::text, 'SCHC'::text])))
);

CREATE TABLE tax_rate_components (
  company_id uuid NOT NULL,
  combined_rate_id bigint NOT NULL,
  position integer NOT NULL,
  component_id bigint NOT NULL,
  CONSTRAINT tax_rate_components_pkey PRIMARY KEY (company_id, combined_rate_id, "position"),
  CONSTRAINT tax_rate_components_company_id_combined_rate_id_component_i_key UNIQUE (company_id, combined_rate_id, component_id),
  CONSTRAINT tax_rate_components_company_id_combined_rate_id_fkey FOREIGN KEY (company_id, combined_rate_id) REFERENCES tax_rates(company_id, id),
  CONSTRAINT tax_rate_components_company_id_component_id_fkey FOREIGN KEY (company_id, component_id) REFERENCES tax_rates(company_id, id),
  CONSTRAINT tax_rate_components_position_check CHECK ((("position" >= 1) AND ("position" <= 10)))
);
CREATE INDEX tax_rate_components_by_component ON tax_rate_components USING btree (company_id, component_id);

CREATE TABLE tax_rates (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  combined boolean NOT NULL,
  agency_id bigint,
  rate_percent text NOT NULL,
  payable_account text,
  active boolean NOT NULL DEFAULT true,
  deactivated_at timestamp with time zone,
  deactivated_reason text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_rates_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_rates_company_id_agency_id_fkey FOREIGN KEY (company_id, agency_id) REFERENCES tax_agencies(company_id, id),
  CONSTRAINT tax_rates_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_rates_check CHECK ((combined = (agency_id IS NULL))),
  CONSTRAINT tax_rates_check1 CHECK ((combined = (payable_account IS NULL))),
  CONSTRAINT tax_rates_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT tax_rates_rate_percent_check CHECK ((rate_percent ~ '^[0-9]{1,3}(\.[0-9]{1,4})?$'::text))
);
CREATE TRIGGER tax_rates_guard BEFORE DELETE OR UPDATE ON tax_rates FOR EACH ROW EXECUTE FUNCTION sales_tax_rate_guard();

CREATE TABLE tax_tin_matches (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  contact_id bigint NOT NULL,
  profile_id bigint NOT NULL,
  result text NOT NULL,
  provider_reference text,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_tin_matches_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_tin_matches_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_tin_matches_company_id_profile_id_fkey FOREIGN KEY (company_id, profile_id) REFERENCES tax_vendor_profiles(company_id, id)
);

CREATE TABLE tax_vendor_boxes (
  company_id uuid NOT NULL,
  contact_id bigint NOT NULL,
  box text NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_vendor_boxes_pkey PRIMARY KEY (company_id, contact_id),
  CONSTRAINT tax_vendor_boxes_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT tax_vendor_boxes_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_vendor_boxes_box_check CHECK ((box = ANY (ARRAY['NEC1'::text, 'MISC1'::text, 'MISC2'::text, 'MISC3'::text, 'MISC6'::text, 'MISC10'::text])))
);

CREATE TABLE tax_vendor_profiles (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  contact_id bigint NOT NULL,
  legal_name text NOT NULL,
  business_name text,
  tax_class text NOT NULL,
  tax_class_other text,
  foreign_partners boolean NOT NULL DEFAULT false,
  exempt_payee_code text,
  fatca_code text,
  address1 text NOT NULL,
  address2 text,
  city text NOT NULL,
  state text NOT NULL,
  zip text NOT NULL,
  tin_type text NOT NULL,
  tin_sealed text NOT NULL,
  tin_last4 text NOT NULL,
  source text NOT NULL,
  tin_match text,
  tin_match_at timestamp with time zone,
  superseded_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_vendor_profiles_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_vendor_profiles_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT tax_vendor_profiles_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_vendor_profiles_source_check CHECK ((source = ANY (ARRAY['entered'::text, 'w9'::text]))),
  CONSTRAINT tax_vendor_profiles_tin_last4_check CHECK ((tin_last4 ~ '^[0-9]{4}$'::text)),
  CONSTRAINT tax_vendor_profiles_tin_type_check CHECK ((tin_type = ANY (ARRAY['SSN'::text, 'EIN'::text, 'ITIN'::text, 'ATIN'::text])))
);
CREATE UNIQUE INDEX tax_vendor_profiles_current ON tax_vendor_profiles USING btree (company_id, contact_id) WHERE (superseded_at IS NULL);

CREATE TABLE tax_w9_requests (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  contact_id bigint NOT NULL,
  email text NOT NULL,
  token_hash text NOT NULL,
  status text NOT NULL,
  message text,
  expires_at timestamp with time zone NOT NULL,
  completed_at timestamp with time zone,
  cancel_reason text,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT tax_w9_requests_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT tax_w9_requests_token_hash_key UNIQUE (token_hash),
  CONSTRAINT tax_w9_requests_company_id_contact_id_fkey FOREIGN KEY (company_id, contact_id) REFERENCES contacts(company_id, id),
  CONSTRAINT tax_w9_requests_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT tax_w9_requests_status_check CHECK ((status = ANY (ARRAY['sent'::text, 'completed'::text, 'cancelled'::text])))
);
CREATE INDEX tax_w9_requests_by_contact ON tax_w9_requests USING btree (company_id, contact_id, id);

CREATE TABLE trips (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  vehicle_id bigint NOT NULL,
  trip_date date NOT NULL,
  from_place text NOT NULL,
  to_place text NOT NULL,
  miles_tenths integer NOT NULL,
  round_trip boolean NOT NULL,
  total_tenths integer NOT NULL,
  kind text NOT NULL,
  purpose text,
  contact_id bigint,
  project_id bigint,
  status text NOT NULL,
  recurring_trip_id bigint,
  replaces_trip_id bigint,
  replaced_by_trip_id bigint,
  rationale text,
  void_reason text,
  voided_at timestamp with time zone,
  created_by text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT trips_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT trips_company_id_vehicle_id_fkey FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles(company_id, id),
  CONSTRAINT trips_check CHECK ((total_tenths =
CASE
    WHEN round_trip THEN (2 * miles_tenths)
    ELSE miles_tenths
END)),
  CONSTRAINT trips_check1 CHECK (((kind = 'personal'::text) OR (purpose IS NOT NULL))),
  CONSTRAINT trips_from_place_check CHECK (((length(from_place) >= 1) AND (length(from_place) <= 200))),
  CONSTRAINT trips_kind_check CHECK ((kind = ANY (ARRAY['business'::text, 'personal'::text]))),
  CONSTRAINT trips_miles_tenths_check CHECK ((miles_tenths > 0)),
  CONSTRAINT trips_purpose_check CHECK ((length(purpose) <= 500)),
  CONSTRAINT trips_status_check CHECK ((status = ANY (ARRAY['logged'::text, 'proposed'::text, 'void'::text]))),
  CONSTRAINT trips_to_place_check CHECK (((length(to_place) >= 1) AND (length(to_place) <= 200)))
);
CREATE INDEX trips_by_date ON trips USING btree (company_id, trip_date, id);
CREATE INDEX trips_by_vehicle ON trips USING btree (company_id, vehicle_id, trip_date);
CREATE UNIQUE INDEX trips_recurring_once ON trips USING btree (company_id, recurring_trip_id, trip_date) WHERE ((recurring_trip_id IS NOT NULL) AND (replaces_trip_id IS NULL));

CREATE TABLE users (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  role text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  email text,
  email_verified_at timestamp with time zone,
  CONSTRAINT users_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT users_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT users_email_check CHECK (((email IS NULL) OR ((length(email) >= 3) AND (length(email) <= 254)))),
  CONSTRAINT users_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'cpa'::text, 'accountant'::text, 'staff'::text])))
);
CREATE INDEX users_email ON users USING btree (lower(email)) WHERE (email IS NOT NULL);

CREATE TABLE vehicle_accounts (
  company_id uuid NOT NULL,
  account_code text NOT NULL,
  vehicle_id bigint NOT NULL,
  CONSTRAINT vehicle_accounts_pkey PRIMARY KEY (company_id, account_code),
  CONSTRAINT vehicle_accounts_company_id_vehicle_id_fkey FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles(company_id, id)
);

CREATE TABLE vehicle_odometer (
  company_id uuid NOT NULL,
  vehicle_id bigint NOT NULL,
  tax_year integer NOT NULL,
  start_miles integer NOT NULL,
  end_miles integer,
  CONSTRAINT vehicle_odometer_pkey PRIMARY KEY (company_id, vehicle_id, tax_year),
  CONSTRAINT vehicle_odometer_company_id_vehicle_id_fkey FOREIGN KEY (company_id, vehicle_id) REFERENCES vehicles(company_id, id),
  CONSTRAINT vehicle_odometer_check CHECK (((end_miles IS NULL) OR (end_miles >= start_miles))),
  CONSTRAINT vehicle_odometer_start_miles_check CHECK ((start_miles >= 0)),
  CONSTRAINT vehicle_odometer_tax_year_check CHECK (((tax_year >= 2000) AND (tax_year <= 2100)))
);

CREATE TABLE vehicles (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  description text,
  ownership text NOT NULL DEFAULT 'owned'::text,
  in_service_date date NOT NULL,
  retired_on date,
  created_at timestamp with time zone NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT vehicles_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT vehicles_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT vehicles_check CHECK (((retired_on IS NULL) OR (retired_on >= in_service_date))),
  CONSTRAINT vehicles_description_check CHECK ((length(description) <= 1000)),
  CONSTRAINT vehicles_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT vehicles_ownership_check CHECK ((ownership = ANY (ARRAY['owned'::text, 'leased'::text])))
);

CREATE TABLE webhook_deliveries (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  endpoint_id bigint NOT NULL,
  event_id bigint NOT NULL,
  event_type text NOT NULL,
  test boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'pending'::text,
  attempts integer NOT NULL DEFAULT 0,
  token bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  next_attempt_at timestamp with time zone,
  last_attempt_at timestamp with time zone,
  response_status integer,
  error text,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT webhook_deliveries_company_id_endpoint_id_fkey FOREIGN KEY (company_id, endpoint_id) REFERENCES webhook_endpoints(company_id, id),
  CONSTRAINT webhook_deliveries_error_check CHECK ((length(error) <= 1000)),
  CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text, 'given_up'::text])))
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries USING btree (company_id, endpoint_id, id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries USING btree (created_at);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries USING btree (company_id, endpoint_id, event_id) WHERE (NOT test);

CREATE TABLE webhook_endpoints (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  url text,
  description text,
  secret_sealed text,
  secret_prefix text,
  previous_secret_sealed text,
  previous_valid_until timestamp with time zone,
  disabled_reason text,
  failing_since timestamp with time zone,
  created_at timestamp with time zone,
  updated_at timestamp with time zone,
  removed_at timestamp with time zone,
  CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT webhook_endpoints_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT webhook_endpoints_description_check CHECK ((length(description) <= 500)),
  CONSTRAINT webhook_endpoints_disabled_reason_check CHECK ((disabled_reason = 'failing'::text)),
  CONSTRAINT webhook_endpoints_event_types_check CHECK (((cardinality(event_types) >= 1) AND (cardinality(event_types) <= 64))),
  CONSTRAINT webhook_endpoints_url_check CHECK ((length(url) <= 2048))
);

CREATE OR REPLACE FUNCTION banking_bank_accounts_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'bank accounts are never deleted' USING ERRCODE = 'LD040';
  END IF;
  IF NEW.account_id <> OLD.account_id OR NEW.kind <> OLD.kind THEN
    RAISE EXCEPTION 'a bank account''s ledger account and kind never change' USING ERRCODE = 'LD040';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION banking_bank_rules_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'bank rules are never deleted' USING ERRCODE = 'LD041';
  END IF;
  IF NOT OLD.active OR NEW.active
     OR (NEW.name, NEW.priority, NEW.bank_account_id, NEW.payee_contains, NEW.direction, NEW.amount_min_cents,
         NEW.amount_max_cents, NEW.account_id, NEW.class_name, NEW.memo, NEW.created_at)
        IS DISTINCT FROM
        (OLD.name, OLD.priority, OLD.bank_account_id, OLD.payee_contains, OLD.direction, OLD.amount_min_cents,
         OLD.amount_max_cents, OLD.account_id, OLD.class_name, OLD.memo, OLD.created_at) THEN
    RAISE EXCEPTION 'bank rules are never edited: deactivate and add another' USING ERRCODE = 'LD041';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION banking_reconciliation_items_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  parent_status text;
  target_reconciliation bigint;
  target_company uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    target_reconciliation := OLD.reconciliation_id;
    target_company := OLD.company_id;
  ELSE
    target_reconciliation := NEW.reconciliation_id;
    target_company := NEW.company_id;
  END IF;
  SELECT status INTO parent_status FROM reconciliations WHERE company_id = target_company AND id = target_reconciliation;
  IF TG_OP = 'UPDATE' OR parent_status = 'finished' OR (TG_OP = 'INSERT' AND parent_status <> 'in_progress') THEN
    RAISE EXCEPTION 'the items of reconciliation % can no longer change', target_reconciliation USING ERRCODE = 'LD042';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION banking_reconciliations_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'reconciliations are never deleted' USING ERRCODE = 'LD042';
  END IF;
  IF OLD.status IN ('cancelled', 'undone') THEN
    RAISE EXCEPTION 'reconciliation % is closed', OLD.id USING ERRCODE = 'LD042';
  END IF;
  IF OLD.status = 'finished' AND (NEW.status <> 'undone' OR NEW.statement_date <> OLD.statement_date
      OR NEW.statement_ending_balance_cents <> OLD.statement_ending_balance_cents
      OR NEW.beginning_balance_cents <> OLD.beginning_balance_cents) THEN
    RAISE EXCEPTION 'reconciliation % is finished and immutable', OLD.id USING ERRCODE = 'LD042';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION ledger_accounts_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'accounts are never deleted' USING ERRCODE = 'LD001';
  END IF;
  IF NEW.code IS DISTINCT FROM OLD.code OR NEW.type IS DISTINCT FROM OLD.type
     OR NEW.control IS DISTINCT FROM OLD.control OR NEW.company_id IS DISTINCT FROM OLD.company_id
     OR NEW.parent_code IS DISTINCT FROM OLD.parent_code THEN
    RAISE EXCEPTION 'an account''s code, type, parent and control never change' USING ERRCODE = 'LD001';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION ledger_ai_consent_gate(gate_company uuid, gate_provider text, gate_today date)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN NOT coalesce((SELECT s.required OR s.firm_required IS TRUE FROM ai_7216_settings s WHERE s.company_id = gate_company), false) THEN NULL
    WHEN gate_provider IS NULL THEN 'undeclared'
    WHEN gate_provider IN ('self_hosted', 'none') THEN NULL
    WHEN EXISTS (SELECT 1 FROM ai_consents k WHERE k.company_id = gate_company AND k.status = 'valid_now'
      AND k.valid_until >= gate_today AND k.accepted_providers @> jsonb_build_array(gate_provider)) THEN NULL
    ELSE 'not_covered'
  END
$function$;

CREATE OR REPLACE FUNCTION ledger_audit_chain()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE FUNCTION ledger_audit_field(value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$function$;

CREATE OR REPLACE FUNCTION ledger_audit_hash(e audit_events, seq bigint, prev_hash text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
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
END $function$;

CREATE OR REPLACE FUNCTION ledger_batch_charts_current(current bigint, expected bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % accounts as it read them', current, expected USING ERRCODE = 'LD021';
  END IF;
  RETURN current;
END $function$;

CREATE OR REPLACE FUNCTION ledger_batch_found(counted bigint, expected bigint, state text, what text)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF counted <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % % as it used them', counted, expected, what USING ERRCODE = state;
  END IF;
  RETURN counted;
END $function$;

CREATE OR REPLACE FUNCTION ledger_batch_recorded(recorded bigint, expected bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF recorded <> expected THEN
    RAISE EXCEPTION 'a group commit recorded % of its % idempotency keys', recorded, expected USING ERRCODE = 'LD020';
  END IF;
  RETURN recorded;
END $function$;

CREATE OR REPLACE FUNCTION ledger_check_entry_period()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  period_status text;
BEGIN
  SELECT status INTO period_status FROM periods
    WHERE company_id = NEW.company_id AND start_date <= NEW.entry_date AND end_date >= NEW.entry_date
    FOR SHARE;
  IF period_status = 'hard_locked' THEN
    RAISE EXCEPTION 'the period containing % is hard-locked', NEW.entry_date USING ERRCODE = 'LD011';
  END IF;
  IF period_status = 'soft_locked' AND NEW.soft_lock_override_reason IS NULL THEN
    RAISE EXCEPTION 'the period containing % is soft-locked and no override reason was given', NEW.entry_date
      USING ERRCODE = 'LD011';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entries_statement_checked()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_TABLE_NAME = 'journal_entries' THEN
    PERFORM ledger_queue_unsound_entries(array_agg(company_id), array_agg(id)) FROM new_rows;
  ELSE
    PERFORM ledger_queue_unsound_entries(array_agg(company_id), array_agg(entry_id))
      FROM (SELECT DISTINCT company_id, entry_id FROM new_rows) touched;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entry_check_committed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  stated bigint;
  dated date;
BEGIN
  SELECT e.total_cents, e.entry_date INTO stated, dated FROM journal_entries e
    WHERE e.company_id = NEW.company_id AND e.id = NEW.entry_id;
  PERFORM ledger_entry_verify(NEW.company_id, NEW.entry_id, stated, dated);
  DELETE FROM journal_entry_checks WHERE company_id = NEW.company_id AND entry_id = NEW.entry_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entry_refuse_unsound(target_entry bigint, line_count bigint, line_sum numeric, debit_sum numeric, stated_total bigint, foreign_accounts bigint, line_numbers bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  reason text := ledger_entry_unsound_reason(target_entry, line_count, line_sum, debit_sum, stated_total,
    foreign_accounts, line_numbers);
BEGIN
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'LD010';
  END IF;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entry_unsound_reason(target_entry bigint, line_count bigint, line_sum numeric, debit_sum numeric, stated_total bigint, foreign_accounts bigint, line_numbers bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN line_count < 2 THEN
      format('journal entry %s has %s lines; an entry needs at least 2', target_entry, line_count)
    WHEN line_numbers <> line_count THEN
      format('journal entry %s has %s lines but %s line numbers; a line number may not repeat', target_entry,
        line_count, line_numbers)
    WHEN line_sum <> 0 THEN
      format('journal entry %s does not balance: its lines sum to %s cents', target_entry, line_sum)
    WHEN stated_total IS DISTINCT FROM debit_sum THEN
      format('journal entry %s states a total of %s cents but its debits are %s', target_entry,
        coalesce(stated_total::text, '<NULL>'), debit_sum)
    WHEN foreign_accounts > 0 THEN
      format('journal entry %s has %s lines on accounts that are not its company''s', target_entry, foreign_accounts)
  END
$function$;

CREATE OR REPLACE FUNCTION ledger_entry_verify(target_company uuid, target_entry bigint, stated_total bigint, entry_date date)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  reason text;
  misdated bigint;
BEGIN
  SELECT ledger_entry_unsound_reason(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), stated_total,
      count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
      count(DISTINCT l.line_no)),
    count(*) FILTER (WHERE l.entry_date IS DISTINCT FROM ledger_entry_verify.entry_date)
    INTO reason, misdated
    FROM journal_lines l
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
  IF reason IS NULL AND misdated > 0 THEN
    reason := format('journal entry %s has %s lines dated otherwise than the entry', target_entry, misdated);
  END IF;
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'LD010';
  END IF;
END $function$;

CREATE OR REPLACE FUNCTION ledger_firm_credential_state(credential_kind text, firm bigint, credential bigint, company uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT md5(ROW(credential_kind,
      s.id, s.member_id, s.scopes, extract(epoch FROM s.expires_at), extract(epoch FROM s.revoked_at),
      k.id, k.principal_type, k.member_id, k.firm_agent_id, k.scopes, extract(epoch FROM k.expires_at),
      extract(epoch FROM k.revoked_at), extract(epoch FROM k.overlap_ends_at), k.rate_limit_rpm,
      f.rate_limit_rpm, f.kill_switch_suspended,
      m.status, m.role, m.name, a.status, a.scopes, a.name,
      g.id, g.scopes, x.posting_threshold_cents, x.scopes,
      c.plan, c.rate_limit_rpm, c.kill_switch_suspended)::text)
  FROM firms f
  LEFT JOIN firm_sessions s ON credential_kind = 'firm_session' AND s.firm_id = f.id AND s.id = credential
  LEFT JOIN firm_keys k ON k.firm_id = f.id
    AND k.id = CASE WHEN credential_kind = 'firm_session' THEN s.key_id ELSE credential END
  LEFT JOIN firm_members m ON m.firm_id = f.id AND m.id = COALESCE(s.member_id, k.member_id)
  LEFT JOIN firm_agents a ON a.firm_id = f.id AND a.id = k.firm_agent_id
  LEFT JOIN companies c ON c.company_id = company
  LEFT JOIN firm_grants g ON g.company_id = company AND g.firm_id = f.id AND g.revoked_at IS NULL
  LEFT JOIN firm_agent_assignments x ON x.company_id = company AND x.firm_agent_id = k.firm_agent_id
  WHERE f.id = firm
$function$;

CREATE OR REPLACE FUNCTION ledger_idempotency_scope(tenant text, principal text, idempotency_key text)
 RETURNS uuid
 LANGUAGE sql
 STABLE PARALLEL SAFE STRICT
AS $function$
  SELECT encode(substring(sha256(convert_to(tenant || chr(10) || principal || chr(10) || idempotency_key, 'UTF8'))
    FROM 1 FOR 16), 'hex')::uuid
$function$;

CREATE OR REPLACE FUNCTION ledger_lines_period()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  locked date;
BEGIN
  SELECT min(d.entry_date) INTO locked
    FROM (SELECT DISTINCT company_id, entry_date FROM new_lines) d
    WHERE EXISTS (SELECT FROM periods p WHERE p.company_id = d.company_id AND p.start_date <= d.entry_date
      AND p.end_date >= d.entry_date AND p.status = 'hard_locked');
  IF locked IS NOT NULL THEN
    RAISE EXCEPTION 'the period containing % is hard-locked', locked USING ERRCODE = 'LD011';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_lines_totals()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  past record;
BEGIN
  PERFORM pg_advisory_xact_lock(717, touched.key)
    FROM (SELECT DISTINCT (l.account_id % 2147483647)::int AS key FROM new_lines l ORDER BY 1) touched;

  INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
    SELECT sums.company_id, sums.account_id, sums.day, sums.debit_cents, sums.credit_cents
    FROM (
      SELECT l.company_id, l.account_id, l.entry_date AS day,
        sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END) AS debit_cents,
        sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END) AS credit_cents
      FROM new_lines l
      GROUP BY 1, 2, 3
    ) sums
    WHERE (SELECT true FROM accounts a WHERE a.company_id = sums.company_id AND a.id = sums.account_id)
    ORDER BY sums.company_id, sums.account_id, sums.day
  ON CONFLICT (company_id, account_id, day) DO UPDATE SET
    debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_daily_totals.credit_cents + excluded.credit_cents;

  INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
    SELECT sums.company_id, sums.account_id, sums.month, sums.debit_cents, sums.credit_cents
    FROM (
      SELECT l.company_id, l.account_id, date_trunc('month', l.entry_date::timestamp)::date AS month,
        sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END) AS debit_cents,
        sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END) AS credit_cents
      FROM new_lines l
      GROUP BY 1, 2, 3
    ) sums
    WHERE (SELECT true FROM accounts a WHERE a.company_id = sums.company_id AND a.id = sums.account_id)
    ORDER BY sums.company_id, sums.account_id, sums.month
  ON CONFLICT (company_id, account_id, month) DO UPDATE SET
    debit_cents = account_monthly_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_monthly_totals.credit_cents + excluded.credit_cents;

  SELECT touched.company_id, touched.account_id, turnover.debit_cents, turnover.credit_cents INTO past
    FROM (SELECT DISTINCT l.company_id, l.account_id FROM new_lines l) touched
    CROSS JOIN LATERAL (SELECT coalesce(sum(t.debit_cents), 0) AS debit_cents, coalesce(sum(t.credit_cents), 0) AS credit_cents
      FROM account_monthly_totals t WHERE t.company_id = touched.company_id AND t.account_id = touched.account_id) turnover
    WHERE turnover.debit_cents > 9007199254740991 OR turnover.credit_cents > 9007199254740991
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'account % of company % would have total debits of % and credits of % cents, past 9007199254740991',
      past.account_id, past.company_id, past.debit_cents, past.credit_cents USING ERRCODE = 'LD013';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_periods_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD.status <> 'hard_locked' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a hard-locked period is never deleted' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.start_date <> OLD.start_date OR NEW.end_date <> OLD.end_date OR NEW.company_id <> OLD.company_id THEN
    RAISE EXCEPTION 'a hard-locked period keeps its dates' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.status = 'hard_locked' THEN
    RETURN NEW;
  END IF;
  IF NEW.status <> 'open' THEN
    RAISE EXCEPTION 'a hard-locked period is reopened only to open' USING ERRCODE = 'LD011';
  END IF;
  IF coalesce(btrim(NEW.status_reason), '') = '' OR NEW.status_reason IS NOT DISTINCT FROM OLD.status_reason THEN
    RAISE EXCEPTION 'a hard-locked period is reopened with a reason of its own, not the lock''s' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.status_changed_by IS NULL OR NEW.status_changed_by !~ '^((user|firm_member):[0-9]+|operator:?)$' THEN
    RAISE EXCEPTION 'a hard-locked period is reopened by a person, stamped user:<id> or firm_member:<id>' USING ERRCODE = 'LD011';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION ledger_queue_unsound_entries(companies uuid[], entries bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO journal_entry_checks (company_id, entry_id)
    SELECT touched.company_id, touched.entry_id
    FROM unnest(companies, entries) AS touched(company_id, entry_id)
    LEFT JOIN LATERAL (
      SELECT e.total_cents, e.entry_date FROM journal_entries e
      WHERE e.company_id = touched.company_id AND e.id = touched.entry_id
    ) entry ON true
    CROSS JOIN LATERAL (
      SELECT count(*) AS line_count, coalesce(sum(l.amount_cents), 0) AS line_sum,
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0) AS debit_sum,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id))
          AS foreign_accounts,
        count(DISTINCT l.line_no) AS line_numbers,
        count(*) FILTER (WHERE l.entry_date IS DISTINCT FROM entry.entry_date) AS misdated
      FROM journal_lines l
      WHERE l.company_id = touched.company_id AND l.entry_id = touched.entry_id
    ) lines
    WHERE lines.misdated > 0 OR ledger_entry_unsound_reason(touched.entry_id, lines.line_count, lines.line_sum,
      lines.debit_sum, entry.total_cents, lines.foreign_accounts, lines.line_numbers) IS NOT NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'LD001';
END $function$;

CREATE OR REPLACE FUNCTION ledger_refuse_direct_audit_heads()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '% is kept by the audit log''s trigger alone', TG_TABLE_NAME USING ERRCODE = 'LD001';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_refuse_direct_totals()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '% is kept by the journal''s triggers alone', TG_TABLE_NAME USING ERRCODE = 'LD001';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_refuse_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is never truncated', TG_TABLE_NAME USING ERRCODE = 'LD001';
END $function$;

CREATE OR REPLACE FUNCTION sales_tax_rate_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'tax rates are never deleted' USING ERRCODE = 'LD001';
  END IF;
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.rate_percent IS DISTINCT FROM OLD.rate_percent
     OR NEW.agency_id IS DISTINCT FROM OLD.agency_id OR NEW.payable_account IS DISTINCT FROM OLD.payable_account
     OR NEW.combined IS DISTINCT FROM OLD.combined THEN
    RAISE EXCEPTION 'tax rates are never edited: add a new rate and deactivate this one' USING ERRCODE = 'LD001';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION webhook_fan_out()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;
