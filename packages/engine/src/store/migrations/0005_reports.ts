/**
 * Reports: per-account monthly totals, rolled up from the ledger's daily totals by a trigger in the
 * posting's own transaction.
 *
 * A balance as of a date is the sum of an account's whole months before that date's month plus
 * the days of its month up to the date: at most one row per month and 31 daily rows per account,
 * however long the company has been posting. Summing daily rows alone reads one row per account
 * and day (about 550,000 rows for 1,000 accounts over two years), too many for a trial balance in
 * tens of milliseconds (docs/decisions/0201-monthly-totals-for-report-balances.md).
 *
 * The trigger adds each daily row's change to its month row. The ledger upserts an entry's daily
 * rows at commit, in account order (ledger_entry_committed, migration 0002), so month rows are
 * locked in the same order, for the same short time, and concurrent postings cannot deadlock on
 * them. Existing daily totals are rolled up once when this migration runs.
 *
 * The loose days at the ends of a range (for a balance, the days of as_of's month up to it, or
 * after it when fewer) are read for the whole chart at once by (company, day): one index range of
 * at most about 15,000 rows for 1,000 accounts, rather than 1,000 probes of the primary key.
 */
export const sql = `
CREATE TABLE account_monthly_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  debit_cents bigint NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
  credit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
  PRIMARY KEY (company_id, account_id, month),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id)
);

CREATE INDEX account_daily_totals_by_day ON account_daily_totals (company_id, day);

CREATE FUNCTION reports_roll_up_daily_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.company_id = OLD.company_id AND NEW.account_id = OLD.account_id
     AND date_trunc('month', NEW.day::timestamp) = date_trunc('month', OLD.day::timestamp) THEN
    UPDATE account_monthly_totals SET
      debit_cents = debit_cents + NEW.debit_cents - OLD.debit_cents,
      credit_cents = credit_cents + NEW.credit_cents - OLD.credit_cents
    WHERE company_id = NEW.company_id AND account_id = NEW.account_id
      AND month = date_trunc('month', NEW.day::timestamp)::date;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE account_monthly_totals SET
      debit_cents = debit_cents - OLD.debit_cents,
      credit_cents = credit_cents - OLD.credit_cents
    WHERE company_id = OLD.company_id AND account_id = OLD.account_id
      AND month = date_trunc('month', OLD.day::timestamp)::date;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
    VALUES (NEW.company_id, NEW.account_id, date_trunc('month', NEW.day::timestamp)::date, NEW.debit_cents, NEW.credit_cents)
    ON CONFLICT (company_id, account_id, month) DO UPDATE SET
      debit_cents = account_monthly_totals.debit_cents + excluded.debit_cents,
      credit_cents = account_monthly_totals.credit_cents + excluded.credit_cents;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER account_daily_totals_roll_up AFTER INSERT OR UPDATE OR DELETE ON account_daily_totals
  FOR EACH ROW EXECUTE FUNCTION reports_roll_up_daily_totals();

INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
SELECT company_id, account_id, date_trunc('month', day::timestamp)::date, sum(debit_cents), sum(credit_cents)
FROM account_daily_totals
GROUP BY company_id, account_id, date_trunc('month', day::timestamp)::date;
`
