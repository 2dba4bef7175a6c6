/**
 * Totals written per statement, so that many entries can commit together
 * (docs/decisions/0705-group-commit.md).
 *
 * Until now each entry's commit trigger added its lines to the daily and monthly totals, account
 * by account. That order only prevents deadlocks while a transaction holds one entry: a
 * transaction of many entries (a group commit) would lock entry by entry, not in one global
 * order, and two of them could each hold a row the other waits for. So:
 *
 * - The totals are added by a statement-level trigger on `journal_lines`: every INSERT adds the
 *   sums of all its lines, grouped by company, account and day, to the daily rows in that order
 *   and then to the monthly rows in that order. Any two transactions of one statement of lines
 *   each lock total rows in the same order; a batch of entries is one such statement. The rows
 *   stay locked until the transaction ends, one statement later for a batch.
 * - Lines on an account that is not their company's are left out of the totals, as before: the
 *   commit check refuses them (migration 0006) and nothing of them is kept.
 * - The commit trigger of an entry now only checks its money rules.
 * - A line's own commit trigger skips the full check when its entry was checked at commit in the
 *   same transaction. The memo of checked entries is now a set (bounded: past 16 KB it starts
 *   again, which costs a re-check, never a missed one): in a batch, the triggers of several
 *   entries may run before those of their lines.
 * - `ledger_batch_recorded` lets a group commit's one statement refuse itself when it could not
 *   record every idempotency key it carries (a concurrent duplicate recorded one first).
 */
export const sql = `
CREATE FUNCTION ledger_lines_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
    SELECT l.company_id, l.account_id, l.entry_date,
      sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END),
      sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END)
    FROM new_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    GROUP BY l.company_id, l.account_id, l.entry_date
    ORDER BY l.company_id, l.account_id, l.entry_date
  ON CONFLICT (company_id, account_id, day) DO UPDATE SET
    debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_daily_totals.credit_cents + excluded.credit_cents;
  INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
    SELECT l.company_id, l.account_id, date_trunc('month', l.entry_date::timestamp)::date AS month,
      sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END),
      sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END)
    FROM new_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    GROUP BY l.company_id, l.account_id, month
    ORDER BY l.company_id, l.account_id, month
  ON CONFLICT (company_id, account_id, month) DO UPDATE SET
    debit_cents = account_monthly_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_monthly_totals.credit_cents + excluded.credit_cents;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_lines_totals AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_totals();

-- At commit, for each entry of the transaction: its money rules (migration 0006), then the memo
-- that its own lines' triggers need not check it again.
CREATE OR REPLACE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
BEGIN
  PERFORM ledger_entry_refuse_unsound(NEW.id, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), NEW.total_cents,
      count(*) FILTER (WHERE a.id IS NULL))
    FROM journal_lines l
    LEFT JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = NEW.company_id AND l.entry_id = NEW.id;
  IF length(memo) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries', memo || ',' || NEW.company_id::text || ':' || NEW.id::text || ',', true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ledger_line_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF position(',' || NEW.company_id::text || ':' || NEW.entry_id::text || ','
      IN coalesce(current_setting('ledger.checked_entries', true), '')) = 0 THEN
    PERFORM ledger_entry_lines_check(NEW.company_id, NEW.entry_id);
  END IF;
  RETURN NULL;
END $$;

-- A group commit's statement ends by counting the idempotency records it wrote: fewer than its
-- requests means a key was taken meanwhile, and the whole statement, one transaction, is refused.
CREATE FUNCTION ledger_batch_recorded(recorded bigint, expected bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF recorded <> expected THEN
    RAISE EXCEPTION 'a group commit recorded % of its % idempotency keys', recorded, expected USING ERRCODE = 'LD020';
  END IF;
  RETURN recorded;
END $$;
`
