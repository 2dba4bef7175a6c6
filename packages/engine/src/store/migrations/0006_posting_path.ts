/**
 * The posting path, made cheaper for the database without weakening any money rule
 * (docs/decisions/0703-posting-path-in-the-database.md, docs/performance.md).
 *
 * A profile of PostgreSQL under 16 concurrent posters showed a fifth of its time in foreign-key
 * checks and a sixth in the commit-time triggers. Each foreign-key check is a query of its own
 * that also locks the referenced row (FOR KEY SHARE), and every posting referenced the same
 * company row from three tables: concurrent postings queued on that row's lock and wrote
 * multixacts for it. So:
 *
 * - The foreign keys from the append-only, high-volume tables to `companies` (journal entries,
 *   the audit log, the outbox) and from journal lines to their entry and account are dropped.
 *   What they guaranteed is checked at commit instead, by the same pass that already sums an
 *   entry's lines: every line's account must be an account of the entry's company (accounts are
 *   never deleted and never change company, migration 0002, so no lock is needed), and a line
 *   whose entry does not exist fails the stated-total check. An entry without a company cannot
 *   pass either: it needs two lines on accounts of its company. Audit and outbox rows are only
 *   written by the engine, for the company of the request, and companies are never deleted.
 * - The commit trigger reads an entry's lines once and adds their sums to the daily AND the
 *   monthly totals in the same statement, instead of a row trigger on every daily row (migration
 *   0005) doing it one row at a time. Nothing else writes daily totals; a program that does must
 *   keep the monthly totals too (bench/reports.ts does).
 * - The stated total is taken from the entry row at hand rather than read again.
 *
 * And the idempotency record, more than half of a posting's bytes, gets smaller: the stored
 * answer is \`json\`, its text as sent, instead of \`jsonb\` (about 150 bytes fewer for a posting's
 * answer, and a replay is now byte for byte the first answer, where \`jsonb\` reordered its keys).
 * PostgreSQL does not compress a row under about 2 KB whatever toast_tuple_target says, so the
 * answer stays uncompressed.
 */
export const sql = `
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_company_id_fkey;
ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_company_id_entry_id_fkey;
ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_company_id_account_id_fkey;
ALTER TABLE audit_events DROP CONSTRAINT audit_events_company_id_fkey;
ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_company_id_fkey;

ALTER TABLE idempotency_records ALTER COLUMN body TYPE json USING body::json;

DROP TRIGGER account_daily_totals_roll_up ON account_daily_totals;
DROP FUNCTION reports_roll_up_daily_totals();

-- The money rules of one entry, from the figures of its lines: at least two lines, summing to
-- zero, debits equal to the stated total (NULL when the entry does not exist), every line on an
-- account of the entry's company. Raises the first rule broken.
CREATE FUNCTION ledger_entry_refuse_unsound(target_entry bigint, line_count bigint, line_sum numeric, debit_sum numeric,
  stated_total bigint, foreign_accounts bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF line_count < 2 THEN
    RAISE EXCEPTION 'journal entry % has % lines; an entry needs at least 2', target_entry, line_count
      USING ERRCODE = 'LD010';
  END IF;
  IF line_sum <> 0 THEN
    RAISE EXCEPTION 'journal entry % does not balance: its lines sum to % cents', target_entry, line_sum
      USING ERRCODE = 'LD010';
  END IF;
  IF stated_total IS DISTINCT FROM debit_sum THEN
    RAISE EXCEPTION 'journal entry % states a total of % cents but its debits are %', target_entry, stated_total, debit_sum
      USING ERRCODE = 'LD010';
  END IF;
  IF foreign_accounts > 0 THEN
    RAISE EXCEPTION 'journal entry % has % lines on accounts that are not its company''s', target_entry, foreign_accounts
      USING ERRCODE = 'LD010';
  END IF;
END $$;

-- For lines added to an entry of an earlier transaction (ledger_line_committed, migration 0002):
-- the entry's lines as they now are, and its stated total read from the entry.
CREATE OR REPLACE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_refuse_unsound(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0),
      (SELECT total_cents FROM journal_entries WHERE company_id = target_company AND id = target_entry),
      count(*) FILTER (WHERE a.id IS NULL))
    FROM journal_lines l
    LEFT JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
END $$;

-- At commit, for each entry of the transaction, one statement reads its lines once (with their
-- accounts), adds their sums to the daily and the monthly totals, and counts what the checks need;
-- a failed check raises, and the totals just written roll back with everything else. Rows are
-- written in account order, daily and monthly in the same order for every posting: concurrent
-- commits touching the same accounts lock their rows in one order and cannot deadlock.
CREATE OR REPLACE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  line_count bigint;
  line_sum numeric;
  debit_sum numeric;
  foreign_accounts bigint;
BEGIN
  WITH lines AS MATERIALIZED (
    SELECT l.account_id, l.amount_cents, a.id IS NULL AS foreign_account
    FROM journal_lines l
    LEFT JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = NEW.company_id AND l.entry_id = NEW.id
  ), sums AS MATERIALIZED (
    SELECT account_id,
      sum(CASE WHEN amount_cents > 0 THEN amount_cents ELSE 0 END) AS debit_cents,
      sum(CASE WHEN amount_cents < 0 THEN -amount_cents ELSE 0 END) AS credit_cents
    FROM lines WHERE NOT foreign_account
    GROUP BY account_id
  ), daily AS (
    INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
      SELECT NEW.company_id, account_id, NEW.entry_date, debit_cents, credit_cents FROM sums ORDER BY account_id
    ON CONFLICT (company_id, account_id, day) DO UPDATE SET
      debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
      credit_cents = account_daily_totals.credit_cents + excluded.credit_cents
  ), monthly AS (
    INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
      SELECT NEW.company_id, account_id, date_trunc('month', NEW.entry_date::timestamp)::date, debit_cents, credit_cents
      FROM sums ORDER BY account_id
    ON CONFLICT (company_id, account_id, month) DO UPDATE SET
      debit_cents = account_monthly_totals.debit_cents + excluded.debit_cents,
      credit_cents = account_monthly_totals.credit_cents + excluded.credit_cents
  )
  SELECT count(*), coalesce(sum(amount_cents), 0), coalesce(sum(amount_cents) FILTER (WHERE amount_cents > 0), 0),
      count(*) FILTER (WHERE foreign_account)
    INTO line_count, line_sum, debit_sum, foreign_accounts
    FROM lines;
  -- The checks, then the memo that this entry's own line triggers need not check it again.
  PERFORM ledger_entry_refuse_unsound(NEW.id, line_count, line_sum, debit_sum, NEW.total_cents, foreign_accounts),
    set_config('ledger.checked_entry', NEW.company_id::text || ':' || NEW.id::text, true);
  RETURN NULL;
END $$;
`
