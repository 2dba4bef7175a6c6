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
  CONSTRAINT audit_events_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT audit_events_outcome_check CHECK ((outcome = ANY (ARRAY['ok'::text, 'refused'::text])))
);
CREATE TRIGGER audit_events_append_only BEFORE DELETE OR UPDATE ON audit_events FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

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
  CONSTRAINT companies_pkey PRIMARY KEY (company_id),
  CONSTRAINT companies_fiscal_year_start_month_check CHECK (((fiscal_year_start_month >= 1) AND (fiscal_year_start_month <= 12))),
  CONSTRAINT companies_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT companies_plan_check CHECK ((plan = ANY (ARRAY['solo'::text, 'business'::text, 'advanced'::text, 'owned'::text]))),
  CONSTRAINT companies_rate_limit_rpm_check CHECK ((rate_limit_rpm > 0)),
  CONSTRAINT companies_starter_chart_check CHECK ((starter_chart = ANY (ARRAY['general'::text, 'services'::text, 'retail'::text, 'empty'::text])))
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
CREATE CONSTRAINT TRIGGER journal_entries_committed AFTER INSERT ON journal_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_committed();
CREATE TRIGGER journal_entries_immutable BEFORE DELETE OR UPDATE ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_entries_period BEFORE INSERT ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_period();

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
CREATE CONSTRAINT TRIGGER journal_lines_committed AFTER INSERT ON journal_lines DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_line_committed();
CREATE TRIGGER journal_lines_entries_checked AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_entries_checked();
CREATE TRIGGER journal_lines_immutable BEFORE DELETE OR UPDATE ON journal_lines FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_lines_statements BEFORE INSERT ON journal_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_count_line_statement();
CREATE TRIGGER journal_lines_totals AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_totals();

CREATE TABLE ledger_migrations (
  id integer NOT NULL,
  name text NOT NULL,
  applied_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT ledger_migrations_pkey PRIMARY KEY (id)
);

CREATE TABLE number_counters (
  company_id uuid NOT NULL,
  prefix text NOT NULL,
  last_value bigint NOT NULL,
  CONSTRAINT number_counters_pkey PRIMARY KEY (company_id, prefix),
  CONSTRAINT number_counters_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT number_counters_last_value_check CHECK ((last_value >= 0))
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
  CONSTRAINT statement_imports_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT statement_imports_company_id_bank_account_id_fkey FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts(company_id, id),
  CONSTRAINT statement_imports_duplicates_check CHECK ((duplicates >= 0)),
  CONSTRAINT statement_imports_format_check CHECK ((format = ANY (ARRAY['ofx'::text, 'qfx'::text, 'csv'::text, 'feed'::text]))),
  CONSTRAINT statement_imports_lines_imported_check CHECK ((lines_imported >= 0)),
  CONSTRAINT statement_imports_lines_read_check CHECK ((lines_read >= 0))
);
CREATE INDEX statement_imports_by_account ON statement_imports USING btree (company_id, bank_account_id, id);

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

CREATE TABLE users (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  name text NOT NULL,
  role text NOT NULL,
  created_at timestamp with time zone NOT NULL,
  CONSTRAINT users_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT users_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT users_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'cpa'::text, 'accountant'::text, 'staff'::text])))
);

CREATE TABLE webhook_endpoints (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'::regclass),
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (company_id, id),
  CONSTRAINT webhook_endpoints_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(company_id),
  CONSTRAINT webhook_endpoints_event_types_check CHECK (((cardinality(event_types) >= 1) AND (cardinality(event_types) <= 16)))
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

CREATE OR REPLACE FUNCTION ledger_count_line_statement()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('ledger.line_statements',
    (coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0')::bigint + 1)::text, true);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entry_committed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
  checked text := ',' || NEW.company_id::text || ':' || NEW.id::text || '@'
    || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0');
BEGIN
  IF position(checked || '=' || NEW.total_cents::text || ',' IN memo) = 0 THEN
    PERFORM ledger_entry_refuse_unsound(NEW.id, count(*), coalesce(sum(l.amount_cents), 0),
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), NEW.total_cents,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
        count(DISTINCT l.line_no))
      FROM journal_lines l
      WHERE l.company_id = NEW.company_id AND l.entry_id = NEW.id;
  END IF;
  IF length(memo) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries', memo || checked || ',', true);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM ledger_entry_refuse_unsound(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0),
      (SELECT total_cents FROM journal_entries WHERE company_id = target_company AND id = target_entry),
      count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
      count(DISTINCT l.line_no))
    FROM journal_lines l
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
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

CREATE OR REPLACE FUNCTION ledger_idempotency_scope(tenant text, principal text, idempotency_key text)
 RETURNS uuid
 LANGUAGE sql
 STABLE PARALLEL SAFE STRICT
AS $function$
  SELECT encode(substring(sha256(convert_to(tenant || chr(10) || principal || chr(10) || idempotency_key, 'UTF8'))
    FROM 1 FOR 16), 'hex')::uuid
$function$;

CREATE OR REPLACE FUNCTION ledger_line_committed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF position(',' || NEW.company_id::text || ':' || NEW.entry_id::text || '@'
      || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0') || ','
      IN coalesce(current_setting('ledger.checked_entries', true), '')) = 0 THEN
    PERFORM ledger_entry_lines_check(NEW.company_id, NEW.entry_id);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_lines_entries_checked()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
  statement_count text := coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0');
  checked text;
BEGIN
  SELECT string_agg(',' || touched.company_id::text || ':' || touched.entry_id::text || '@' || statement_count
      || '=' || lines.debit_sum::text || ',', '')
    INTO checked
    FROM (SELECT DISTINCT company_id, entry_id FROM new_lines) touched
    CROSS JOIN LATERAL (
      SELECT count(*) AS line_count, coalesce(sum(l.amount_cents), 0) AS line_sum,
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0) AS debit_sum,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id))
          AS foreign_accounts,
        count(DISTINCT l.line_no) AS line_numbers
      FROM journal_lines l
      WHERE l.company_id = touched.company_id AND l.entry_id = touched.entry_id
    ) lines
    WHERE ledger_entry_unsound_reason(touched.entry_id, lines.line_count, lines.line_sum, lines.debit_sum,
      lines.debit_sum::bigint, lines.foreign_accounts, lines.line_numbers) IS NULL;
  IF checked IS NULL OR length(checked) > 16384 THEN
    RETURN NULL;
  END IF;
  IF length(memo) + length(checked) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries', memo || checked, true);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_lines_totals()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN

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
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION ledger_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'LD001';
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
