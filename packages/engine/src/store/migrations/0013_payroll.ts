/**
 * The payroll baseline: Payroll year to date (spec 3-endpoints-b 4.8). One row per import of a
 * payroll provider's year-to-date export, its employee rows, and the summary entry it posted.
 *
 * Rules the database holds besides the engine:
 * - amounts are integer cents, never negative;
 * - an import posts at most one summary entry (`summary_entry_id`), and a void keeps the row;
 * - an employee row belongs to one import and appears once per line of the file.
 */
export const sql = `
CREATE TABLE payroll_imports (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  tax_year int NOT NULL CHECK (tax_year BETWEEN 2000 AND 2100),
  provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 60),
  period_through date NOT NULL,
  switch_id bigint,
  columns jsonb NOT NULL,
  employee_count int NOT NULL CHECK (employee_count >= 1),
  totals jsonb NOT NULL,
  gross_wages_cents bigint NOT NULL CHECK (gross_wages_cents >= 0),
  status text NOT NULL DEFAULT 'imported' CHECK (status IN ('imported', 'void')),
  summary_entry_id bigint,
  void_entry_id bigint,
  void_reason text,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (extract(year FROM period_through) = tax_year)
);
CREATE INDEX payroll_imports_by_year ON payroll_imports (company_id, tax_year, id);

CREATE TABLE payroll_import_rows (
  company_id uuid NOT NULL,
  import_id bigint NOT NULL,
  line_no int NOT NULL CHECK (line_no >= 2),
  employee text NOT NULL CHECK (length(employee) BETWEEN 1 AND 200),
  amounts jsonb NOT NULL,
  PRIMARY KEY (company_id, import_id, line_no),
  FOREIGN KEY (company_id, import_id) REFERENCES payroll_imports (company_id, id)
);
`
