/**
 * The sales baseline: sales and purchases. Contacts, items, sales tax, documents and their lines,
 * payments and their applications, estimates, recurring templates and occurrences, and the email
 * outbox (its sending runs as background jobs, whose queue is the foundation's).
 *
 * Rules the database holds besides the engine:
 * - a document's total is its lines plus its tax lines, and it is positive;
 * - a document or payment is linked to the journal entry that posted it (and to its reversal);
 * - applications are positive and come from exactly one source (a payment or a credit);
 * - document numbers are unique per company and kind (per vendor for purchase documents);
 * - a recurring template generates an occurrence date at most once (its primary key);
 * - a tax id is never stored: only its last four digits.
 *
 * A baseline (issue 18; 0001_foundation.ts says more): every piece is as migration 0003 made it
 * (ADRs 0300-0305), but the job queue, now in the foundation's baseline.
 */
export const sql = `
CREATE TABLE contacts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  kind text NOT NULL CHECK (kind IN ('customer', 'vendor')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email text CHECK (length(email) <= 254),
  terms_days int CHECK (terms_days BETWEEN 0 AND 3650),
  active boolean NOT NULL DEFAULT true,
  is_1099 boolean NOT NULL DEFAULT false,
  tax_id_last4 text CHECK (tax_id_last4 ~ '^[0-9]{4}$'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (kind = 'vendor' OR NOT is_1099)
);
CREATE INDEX contacts_by_kind ON contacts (company_id, kind, id);

CREATE TABLE items (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('service', 'non_inventory')),
  description text,
  sales_price_cents bigint CHECK (sales_price_cents >= 0),
  purchase_cost_cents bigint CHECK (purchase_cost_cents >= 0),
  income_account text,
  expense_account text,
  taxable boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

-- One row per company and number prefix, locked FOR UPDATE by the transaction that takes a number:
-- a number is consumed only when that transaction commits, and never handed out twice.
CREATE TABLE number_counters (
  company_id uuid NOT NULL REFERENCES companies,
  prefix text NOT NULL,
  last_value bigint NOT NULL CHECK (last_value >= 0),
  PRIMARY KEY (company_id, prefix)
);

CREATE TABLE tax_agencies (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  contact_id bigint,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id)
);

-- Rates are never edited: only 'active' and its deactivation facts change.
CREATE TABLE tax_rates (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  combined boolean NOT NULL,
  agency_id bigint,
  rate_percent text NOT NULL CHECK (rate_percent ~ '^[0-9]{1,3}(\\.[0-9]{1,4})?$'),
  payable_account text,
  active boolean NOT NULL DEFAULT true,
  deactivated_at timestamptz,
  deactivated_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, agency_id) REFERENCES tax_agencies (company_id, id),
  CHECK (combined = (agency_id IS NULL)),
  CHECK (combined = (payable_account IS NULL))
);

CREATE FUNCTION sales_tax_rate_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
CREATE TRIGGER tax_rates_guard BEFORE UPDATE OR DELETE ON tax_rates
  FOR EACH ROW EXECUTE FUNCTION sales_tax_rate_guard();

CREATE TABLE tax_rate_components (
  company_id uuid NOT NULL,
  combined_rate_id bigint NOT NULL,
  position int NOT NULL CHECK (position BETWEEN 1 AND 10),
  component_id bigint NOT NULL,
  PRIMARY KEY (company_id, combined_rate_id, position),
  UNIQUE (company_id, combined_rate_id, component_id),
  FOREIGN KEY (company_id, combined_rate_id) REFERENCES tax_rates (company_id, id),
  FOREIGN KEY (company_id, component_id) REFERENCES tax_rates (company_id, id)
);
CREATE INDEX tax_rate_components_by_component ON tax_rate_components (company_id, component_id);

CREATE TABLE documents (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit_memo', 'bill', 'vendor_credit', 'sales_receipt', 'refund', 'vendor_refund')),
  side text NOT NULL CHECK (side IN ('sales', 'purchases')),
  contact_id bigint NOT NULL,
  number text NOT NULL CHECK (length(number) BETWEEN 1 AND 40),
  doc_date date NOT NULL,
  due_date date,
  terms_days int,
  reference text,
  memo text,
  control_account text NOT NULL,
  tax_rate_id bigint,
  subtotal_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  total_cents bigint NOT NULL CHECK (total_cents > 0),
  entry_id bigint NOT NULL,
  voided boolean NOT NULL DEFAULT false,
  void_entry_id bigint,
  void_reason text,
  void_date date,
  voided_at timestamptz,
  estimate_id bigint,
  recurring_template_id bigint,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id),
  FOREIGN KEY (company_id, tax_rate_id) REFERENCES tax_rates (company_id, id),
  CHECK (total_cents = subtotal_cents + tax_cents),
  CHECK (voided = (void_reason IS NOT NULL)),
  UNIQUE (company_id, entry_id)
);
CREATE UNIQUE INDEX documents_sales_number ON documents (company_id, kind, number) WHERE side = 'sales';
CREATE UNIQUE INDEX documents_purchases_number ON documents (company_id, kind, contact_id, number) WHERE side = 'purchases';
CREATE INDEX documents_by_contact ON documents (company_id, contact_id, doc_date);
CREATE INDEX documents_by_date ON documents (company_id, doc_date, id);

CREATE TABLE document_lines (
  company_id uuid NOT NULL,
  document_id bigint NOT NULL,
  line_no int NOT NULL CHECK (line_no BETWEEN 1 AND 200),
  item_id bigint,
  description text,
  account text NOT NULL,
  quantity text,
  unit_price_cents bigint,
  amount_cents bigint NOT NULL,
  class text,
  taxable boolean NOT NULL,
  PRIMARY KEY (company_id, document_id, line_no),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id),
  FOREIGN KEY (company_id, item_id) REFERENCES items (company_id, id)
);

-- The tax a document charged, one line per jurisdiction, as the rate stood then.
CREATE TABLE document_tax_lines (
  company_id uuid NOT NULL,
  document_id bigint NOT NULL,
  position int NOT NULL,
  tax_rate_id bigint NOT NULL,
  name text NOT NULL,
  agency_id bigint NOT NULL,
  rate_percent text NOT NULL,
  payable_account text NOT NULL,
  taxable_subtotal_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  PRIMARY KEY (company_id, document_id, position),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id)
);

CREATE TABLE payments (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  direction text NOT NULL CHECK (direction IN ('received', 'made')),
  contact_id bigint NOT NULL,
  payment_date date NOT NULL,
  account text NOT NULL,
  control_account text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  number text,
  reference text,
  memo text,
  bank_line_id bigint,
  entry_id bigint NOT NULL,
  voided boolean NOT NULL DEFAULT false,
  void_entry_id bigint,
  void_reason text,
  void_date date,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id),
  UNIQUE (company_id, entry_id)
);
CREATE INDEX payments_by_contact ON payments (company_id, contact_id, payment_date);

-- A payment's or a credit's amount set against an invoice or bill. Voiding either side ends it
-- (voided_on); rows are never deleted, so balances as of any earlier date stay reproducible.
CREATE TABLE applications (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  payment_id bigint,
  credit_document_id bigint,
  document_id bigint NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  applied_on date NOT NULL,
  voided_on date,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, payment_id) REFERENCES payments (company_id, id),
  FOREIGN KEY (company_id, credit_document_id) REFERENCES documents (company_id, id),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id),
  CHECK ((payment_id IS NULL) <> (credit_document_id IS NULL))
);
CREATE INDEX applications_by_document ON applications (company_id, document_id);
CREATE INDEX applications_by_payment ON applications (company_id, payment_id) WHERE payment_id IS NOT NULL;
CREATE INDEX applications_by_credit ON applications (company_id, credit_document_id) WHERE credit_document_id IS NOT NULL;

CREATE TABLE estimates (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  contact_id bigint NOT NULL,
  number text NOT NULL CHECK (length(number) BETWEEN 1 AND 40),
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
  status text NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'converted', 'void')),
  status_reason text,
  invoice_id bigint,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, number),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id),
  FOREIGN KEY (company_id, tax_rate_id) REFERENCES tax_rates (company_id, id),
  FOREIGN KEY (company_id, invoice_id) REFERENCES documents (company_id, id),
  CHECK ((status = 'converted') = (invoice_id IS NOT NULL))
);

CREATE TABLE recurring_templates (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('invoice', 'bill')),
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'quarterly', 'yearly')),
  interval_count int NOT NULL CHECK (interval_count BETWEEN 1 AND 99),
  start_date date NOT NULL,
  end_date date,
  request jsonb NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (end_date IS NULL OR end_date >= start_date)
);

-- The primary key is the promise: an occurrence date of a template is generated at most once.
CREATE TABLE recurring_occurrences (
  company_id uuid NOT NULL,
  template_id bigint NOT NULL,
  occurrence_date date NOT NULL,
  status text NOT NULL CHECK (status IN ('posted', 'pending_approval', 'rejected', 'failed')),
  document_id bigint,
  proposal_id bigint,
  error jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, template_id, occurrence_date),
  FOREIGN KEY (company_id, template_id) REFERENCES recurring_templates (company_id, id),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id)
);

CREATE TABLE email_settings (
  company_id uuid PRIMARY KEY REFERENCES companies,
  reply_to text,
  display_name text,
  security_notices_to text,
  reminders_enabled boolean NOT NULL DEFAULT false,
  reminder_days jsonb NOT NULL DEFAULT '[]',
  updated_at timestamptz
);

CREATE TABLE emails (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  kind text NOT NULL CHECK (kind IN ('document', 'estimate', 'reminder')),
  status text NOT NULL CHECK (status IN ('pending_approval', 'queued', 'sending', 'sent', 'failed', 'suppressed', 'rejected', 'cancelled')),
  document_id bigint,
  estimate_id bigint,
  to_address text NOT NULL,
  to_name text,
  cc jsonb NOT NULL DEFAULT '[]',
  subject text NOT NULL,
  message text,
  attachment_name text,
  policy_verdict text NOT NULL CHECK (policy_verdict IN ('send', 'approve')),
  policy_reasons jsonb NOT NULL DEFAULT '[]',
  requested_by text NOT NULL,
  decided_by text,
  decision_reason text,
  attempts int NOT NULL DEFAULT 0,
  last_error text,
  provider_message_id text,
  sent_at timestamptz,
  reminder_key text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id),
  FOREIGN KEY (company_id, estimate_id) REFERENCES estimates (company_id, id)
);
CREATE INDEX emails_by_status ON emails (company_id, status, id);
-- A payment reminder for one invoice and one offset is sent at most once.
CREATE UNIQUE INDEX emails_reminder_once ON emails (company_id, reminder_key) WHERE reminder_key IS NOT NULL;

CREATE TABLE email_suppressions (
  company_id uuid NOT NULL REFERENCES companies,
  address text NOT NULL,
  reason text NOT NULL,
  email_id bigint,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, address)
);
`
