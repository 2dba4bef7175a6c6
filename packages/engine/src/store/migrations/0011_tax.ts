/**
 * The tax area's baseline: the company's return type, its accounts mapped to return lines (kept
 * per return type, so switching type keeps both), and every export made for tax software, each a
 * new version with its SHA-256 and totals (docs/tax.md, ADRs 1300-1304).
 */
export const sql = `
CREATE TABLE tax_profiles (
  company_id uuid NOT NULL REFERENCES companies PRIMARY KEY,
  return_type text NOT NULL CHECK (return_type IN ('1120S', '1065', '1120', 'SCHC')),
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE tax_line_mappings (
  company_id uuid NOT NULL REFERENCES companies,
  return_type text NOT NULL CHECK (return_type IN ('1120S', '1065', '1120', 'SCHC')),
  account_code text NOT NULL,
  line_id text NOT NULL CHECK (length(line_id) BETWEEN 1 AND 40),
  source text NOT NULL CHECK (source IN ('manual', 'default')),
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, return_type, account_code),
  FOREIGN KEY (company_id, account_code) REFERENCES accounts (company_id, code)
);

CREATE TABLE tax_exports (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  package text NOT NULL CHECK (package IN ('generic', 'package_a', 'package_b', 'package_c')),
  return_type text NOT NULL,
  as_of date NOT NULL,
  version int NOT NULL CHECK (version >= 1),
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes int NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  total_debit_cents bigint NOT NULL,
  total_credit_cents bigint NOT NULL,
  line_count int NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, package, return_type, as_of, version)
);
`
