/**
 * The taxforms area's baseline: information returns (1099s). The payer, the boxes of accounts and
 * vendors, vendors' tax profiles (W-9 details), TIN-match requests, W-9 requests, prior amounts
 * and filings. A TIN is stored only sealed (TokenSealer, bound to its row) beside its last four
 * digits; a filing keeps its masked content in clear and its full file sealed (docs/taxforms.md).
 */
export const sql = `
CREATE TABLE tax_payers (
  company_id uuid NOT NULL REFERENCES companies PRIMARY KEY,
  name text NOT NULL,
  name2 text,
  address1 text NOT NULL,
  address2 text,
  city text NOT NULL,
  state text NOT NULL,
  zip text NOT NULL,
  phone text NOT NULL,
  tin_type text NOT NULL CHECK (tin_type IN ('EIN', 'SSN', 'ITIN')),
  tin_sealed text NOT NULL,
  tin_last4 text NOT NULL CHECK (tin_last4 ~ '^[0-9]{4}$'),
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE tax_account_boxes (
  company_id uuid NOT NULL REFERENCES companies,
  account_code text NOT NULL,
  box text NOT NULL CHECK (box IN ('NEC1', 'MISC1', 'MISC2', 'MISC3', 'MISC6', 'MISC10')),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, account_code),
  FOREIGN KEY (company_id, account_code) REFERENCES accounts (company_id, code)
);

CREATE TABLE tax_vendor_boxes (
  company_id uuid NOT NULL REFERENCES companies,
  contact_id bigint NOT NULL,
  box text NOT NULL CHECK (box IN ('NEC1', 'MISC1', 'MISC2', 'MISC3', 'MISC6', 'MISC10')),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, contact_id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id)
);

-- A new profile supersedes the old (superseded_at set); at most one current profile per vendor.
CREATE TABLE tax_vendor_profiles (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
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
  tin_type text NOT NULL CHECK (tin_type IN ('SSN', 'EIN', 'ITIN', 'ATIN')),
  tin_sealed text NOT NULL,
  tin_last4 text NOT NULL CHECK (tin_last4 ~ '^[0-9]{4}$'),
  source text NOT NULL CHECK (source IN ('entered', 'w9')),
  tin_match text,
  tin_match_at timestamptz,
  superseded_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id)
);
CREATE UNIQUE INDEX tax_vendor_profiles_current ON tax_vendor_profiles (company_id, contact_id) WHERE superseded_at IS NULL;

CREATE TABLE tax_tin_matches (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  contact_id bigint NOT NULL,
  profile_id bigint NOT NULL,
  result text NOT NULL,
  provider_reference text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, profile_id) REFERENCES tax_vendor_profiles (company_id, id)
);

-- The link's token is stored hashed (SHA-256), never in clear.
CREATE TABLE tax_w9_requests (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  contact_id bigint NOT NULL,
  email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('sent', 'completed', 'cancelled')),
  message text,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  cancel_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id)
);
CREATE INDEX tax_w9_requests_by_contact ON tax_w9_requests (company_id, contact_id, id);

CREATE TABLE tax_prior_amounts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  year int NOT NULL,
  contact_id bigint NOT NULL,
  box text NOT NULL CHECK (box IN ('NEC1', 'MISC1', 'MISC2', 'MISC3', 'MISC6', 'MISC10')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  note text,
  voided boolean NOT NULL DEFAULT false,
  void_reason text,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id)
);
CREATE INDEX tax_prior_amounts_by_year ON tax_prior_amounts (company_id, year);

CREATE TABLE tax_filings (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  year int NOT NULL,
  provider text NOT NULL CHECK (provider IN ('gov_csv', 'gov_a2a', 'partner_mock', 'partner_live')),
  kind text NOT NULL CHECK (kind IN ('original', 'correction')),
  status text NOT NULL CHECK (status IN ('proposed', 'rejected', 'failed', 'submitted', 'accepted', 'partially_accepted', 'rejected_by_irs')),
  file_format text NOT NULL CHECK (file_format IN ('fire', 'csv')),
  threshold_cents bigint NOT NULL,
  contact_ids jsonb NOT NULL,
  corrections jsonb NOT NULL,
  payee_count int NOT NULL,
  record_count int NOT NULL,
  total_nec_cents bigint NOT NULL,
  total_misc_cents bigint NOT NULL,
  content_masked text NOT NULL,
  preview_sha256 text NOT NULL,
  file_sealed text NOT NULL,
  file_sha256 text NOT NULL,
  receipt_id text,
  provider_reference text,
  rejected_records jsonb NOT NULL DEFAULT '[]',
  attempts int NOT NULL DEFAULT 0,
  last_error text,
  note text,
  decided_by text,
  decided_at timestamptz,
  decision_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX tax_filings_by_year ON tax_filings (company_id, year, id);
`
