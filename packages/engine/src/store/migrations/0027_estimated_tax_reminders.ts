/**
 * Estimated-tax reminders (issue 27; docs/estimated-taxes.md, ADR 1404): one row per company, tax
 * year and quarter whose reminder the `estimated_tax.reminders` job mailed or is mailing. The
 * primary key is what makes a reminder go out once, whichever worker finds it due first: a worker
 * mails only after its insert (or its claim of a failed or abandoned row) succeeded.
 */
export const sql = `
CREATE TABLE estimated_tax_reminders (
  company_id uuid NOT NULL REFERENCES companies,
  tax_year int NOT NULL CHECK (tax_year BETWEEN 2000 AND 2100),
  quarter int NOT NULL CHECK (quarter BETWEEN 1 AND 4),
  due_date date NOT NULL,
  remaining_cents bigint NOT NULL CHECK (remaining_cents >= 0),
  recipient_count int NOT NULL CHECK (recipient_count BETWEEN 1 AND 50),
  status text NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
  attempts int NOT NULL DEFAULT 1 CHECK (attempts BETWEEN 1 AND 10),
  claimed_by text NOT NULL,
  claimed_at timestamptz NOT NULL,
  sent_at timestamptz,
  provider_message_id text,
  last_error text,
  PRIMARY KEY (company_id, tax_year, quarter)
);
`
