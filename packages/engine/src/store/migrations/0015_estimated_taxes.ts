/**
 * The estimated-taxes baseline (spec 3-endpoints-b 4.10): the saved plan of each year (its
 * inputs; the worksheet is computed from them and the tax tables on every read) and the payments
 * made, each posted through the governed path or recorded outside the books.
 *
 * Rules the database holds besides the engine:
 * - one plan per company and year;
 * - a payment is for quarter 1-4, positive cents, and is posted (with its entry) or outside the books.
 */
export const sql = `
CREATE TABLE estimated_tax_plans (
  company_id uuid NOT NULL REFERENCES companies,
  tax_year int NOT NULL CHECK (tax_year BETWEEN 2000 AND 2100),
  inputs jsonb NOT NULL,
  saved_by text NOT NULL,
  saved_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, tax_year)
);

CREATE TABLE estimated_tax_payments (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  tax_year int NOT NULL CHECK (tax_year BETWEEN 2000 AND 2100),
  quarter int NOT NULL CHECK (quarter BETWEEN 1 AND 4),
  paid_on date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  method text NOT NULL CHECK (method IN ('eftps', 'direct_pay', 'irs_account', 'card', 'check', 'other')),
  confirmation text,
  note text,
  payment_account text,
  pay_from_account text,
  outside_books boolean NOT NULL,
  entry_id bigint,
  status text NOT NULL DEFAULT 'recorded' CHECK (status IN ('recorded', 'void')),
  void_entry_id bigint,
  void_reason text,
  voided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (outside_books OR entry_id IS NOT NULL)
);
CREATE INDEX estimated_tax_payments_by_year ON estimated_tax_payments (company_id, tax_year, quarter);
`
