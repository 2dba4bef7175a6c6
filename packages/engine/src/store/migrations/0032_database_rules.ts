/**
 * The database enforces its own rules against a direct SQL session (issue 19 item 6,
 * docs/reliability.md, ADR 0009). Each rule below was broken from `psql` before this migration:
 *
 * 1. The commit checks no longer trust the session setting `ledger.checked_entries` (any session
 *    can `set_config` it, and one forged it to commit an unbalanced entry). Each statement of
 *    entries or lines checks the entries it touched, set-based, and queues the unsound ones in
 *    journal_entry_checks, whose deferred trigger checks them again at commit: the check owed is a
 *    queued trigger event, which no session can withdraw, not a setting that says it was done.
 * 2. A line carries its own date and is checked by it: a line dated in a hard-locked period is
 *    refused whatever its entry's date, and a line dated otherwise than its entry is refused at
 *    commit (the entry's period check, which holds the period FOR SHARE, then covers its lines).
 * 3. The daily and monthly totals accept rows only from the lines' trigger that keeps them
 *    (pg_trigger_depth() > 1); a direct INSERT, UPDATE or DELETE is refused.
 * 4. TRUNCATE, which fires no row trigger, is refused on the append-only tables and the totals.
 * 5. A hard-locked period leaves that status only by the spec's reopening: to `open`, with a
 *    reason, stamped by a principal that is not an agent (spec 1, period transitions); it is
 *    never deleted, and its dates never change while it is locked.
 *
 * The second line of defence is the application role (ADR 0009, `Roles.ts`): no TRUNCATE, no DDL,
 * and INSERT and SELECT alone on the append-only tables. A superuser can disable triggers; nothing
 * in a schema protects against one.
 */
export const sql = `
-- One aggregate over an entry's lines: the money rules (ledger_entry_unsound_reason) and that each
-- line carries its entry's date; stated_total and entry_date are the entry's (NULL when it does
-- not exist, which the stated-total rule refuses). Raises LD010.
CREATE FUNCTION ledger_entry_verify(target_company uuid, target_entry bigint, stated_total bigint, entry_date date)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  reason text;
  misdated bigint;
BEGIN
  SELECT ledger_entry_unsound_reason(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), stated_total,
      count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
      count(DISTINCT l.line_no)),
    count(*) FILTER (WHERE l.entry_date IS DISTINCT FROM ledger_entry_verify.entry_date)
    INTO reason, misdated
    FROM journal_lines l
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
  IF reason IS NULL AND misdated > 0 THEN
    reason := format('journal entry %s has %s lines dated otherwise than the entry', target_entry, misdated);
  END IF;
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'LD010';
  END IF;
END $$;

-- The checks owed at commit: an entry that a statement left unsound (no lines yet, lines still to
-- come, or lines that break a rule) is queued here by the statement's trigger, and the queued row's
-- deferred trigger checks the entry afresh at commit. Nothing a session can set skips a check: a
-- queued trigger event cannot be withdrawn (deleting the row does not), and SET CONSTRAINTS ...
-- IMMEDIATE only runs it at once. A posting whose statement leaves its entry sound, as the
-- engine's one-statement postings and group commits do, queues nothing: the commit costs no query.
-- Rows are deleted as they are checked.
CREATE TABLE journal_entry_checks (
  company_id uuid NOT NULL,
  entry_id bigint NOT NULL
);

-- Queues the given entries that are unsound as they now stand, set-based: each entry by its key,
-- its lines by theirs (a lateral aggregate), each line's account by its key.
CREATE FUNCTION ledger_queue_unsound_entries(companies uuid[], entries bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO journal_entry_checks (company_id, entry_id)
    SELECT touched.company_id, touched.entry_id
    FROM unnest(companies, entries) AS touched(company_id, entry_id)
    LEFT JOIN LATERAL (
      SELECT e.total_cents, e.entry_date FROM journal_entries e
      WHERE e.company_id = touched.company_id AND e.id = touched.entry_id
    ) entry ON true
    CROSS JOIN LATERAL (
      SELECT count(*) AS line_count, coalesce(sum(l.amount_cents), 0) AS line_sum,
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0) AS debit_sum,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id))
          AS foreign_accounts,
        count(DISTINCT l.line_no) AS line_numbers,
        count(*) FILTER (WHERE l.entry_date IS DISTINCT FROM entry.entry_date) AS misdated
      FROM journal_lines l
      WHERE l.company_id = touched.company_id AND l.entry_id = touched.entry_id
    ) lines
    WHERE lines.misdated > 0 OR ledger_entry_unsound_reason(touched.entry_id, lines.line_count, lines.line_sum,
      lines.debit_sum, entry.total_cents, lines.foreign_accounts, lines.line_numbers) IS NOT NULL;
END $$;

-- After each statement of entries, and of lines, the entries it touched.
CREATE FUNCTION ledger_entries_statement_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'journal_entries' THEN
    PERFORM ledger_queue_unsound_entries(array_agg(company_id), array_agg(id)) FROM new_rows;
  ELSE
    PERFORM ledger_queue_unsound_entries(array_agg(company_id), array_agg(entry_id))
      FROM (SELECT DISTINCT company_id, entry_id FROM new_rows) touched;
  END IF;
  RETURN NULL;
END $$;

-- At commit (or at once under SET CONSTRAINTS ... IMMEDIATE), a queued entry from its row and
-- lines as they are then.
CREATE FUNCTION ledger_entry_check_committed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stated bigint;
  dated date;
BEGIN
  SELECT e.total_cents, e.entry_date INTO stated, dated FROM journal_entries e
    WHERE e.company_id = NEW.company_id AND e.id = NEW.entry_id;
  PERFORM ledger_entry_verify(NEW.company_id, NEW.entry_id, stated, dated);
  DELETE FROM journal_entry_checks WHERE company_id = NEW.company_id AND entry_id = NEW.entry_id;
  RETURN NULL;
END $$;

-- The memo's triggers and the per-row commit triggers give way to the queue.
DROP TRIGGER journal_entries_committed ON journal_entries;
DROP TRIGGER journal_lines_committed ON journal_lines;
DROP TRIGGER journal_lines_entries_checked ON journal_lines;
DROP TRIGGER journal_lines_statements ON journal_lines;
DROP FUNCTION ledger_entry_committed();
DROP FUNCTION ledger_line_committed();
DROP FUNCTION ledger_lines_entries_checked();
DROP FUNCTION ledger_count_line_statement();
DROP FUNCTION ledger_entry_lines_check(uuid, bigint);

CREATE TRIGGER journal_entries_checked AFTER INSERT ON journal_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_statement_checked();
CREATE TRIGGER journal_lines_checked AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_statement_checked();
CREATE CONSTRAINT TRIGGER journal_entry_checks_committed AFTER INSERT ON journal_entry_checks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_check_committed();

-- A statement's lines dated in a hard-locked period are refused by their own dates, once per
-- statement for each company and day it posts to. (Lines dated as their entry, which the commit
-- check requires, are covered by the entry's period check and its FOR SHARE lock as well.)
CREATE FUNCTION ledger_lines_period() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  locked date;
BEGIN
  SELECT min(d.entry_date) INTO locked
    FROM (SELECT DISTINCT company_id, entry_date FROM new_lines) d
    WHERE EXISTS (SELECT FROM periods p WHERE p.company_id = d.company_id AND p.start_date <= d.entry_date
      AND p.end_date >= d.entry_date AND p.status = 'hard_locked');
  IF locked IS NOT NULL THEN
    RAISE EXCEPTION 'the period containing % is hard-locked', locked USING ERRCODE = 'LD011';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER journal_lines_period AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_period();

-- The totals are written by ledger_lines_totals alone, a statement run from a trigger (depth 2);
-- a statement of a session's own (depth 1) is refused. Loading totals by hand (bench/reports.ts)
-- takes session_replication_role = replica, which only a superuser may set.
CREATE FUNCTION ledger_refuse_direct_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '% is kept by the journal''s triggers alone', TG_TABLE_NAME USING ERRCODE = 'LD001';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER account_daily_totals_kept BEFORE INSERT OR UPDATE OR DELETE ON account_daily_totals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_totals();
CREATE TRIGGER account_monthly_totals_kept BEFORE INSERT OR UPDATE OR DELETE ON account_monthly_totals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_direct_totals();

-- TRUNCATE fires no row trigger: refused on its own.
CREATE FUNCTION ledger_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is never truncated', TG_TABLE_NAME USING ERRCODE = 'LD001';
END $$;
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON journal_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER firm_audit_events_no_truncate BEFORE TRUNCATE ON firm_audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER account_daily_totals_no_truncate BEFORE TRUNCATE ON account_daily_totals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER account_monthly_totals_no_truncate BEFORE TRUNCATE ON account_monthly_totals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();

-- A hard lock is left only as the spec reopens it: to open, with a reason, stamped by a
-- principal that is not an agent (status_changed_by '<type>:<id>', as Periods.applyStatus stamps it;
-- whether the principal is a person is the engine's rule, PeriodRules). A locked period
-- keeps its dates and is never deleted (either would take its days out of the lock).
CREATE FUNCTION ledger_periods_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'hard_locked' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a hard-locked period is never deleted' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.start_date <> OLD.start_date OR NEW.end_date <> OLD.end_date OR NEW.company_id <> OLD.company_id THEN
    RAISE EXCEPTION 'a hard-locked period keeps its dates' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.status <> 'hard_locked' AND (NEW.status <> 'open' OR coalesce(btrim(NEW.status_reason), '') = ''
      OR NEW.status_changed_by IS NULL OR NEW.status_changed_by LIKE 'agent:%') THEN
    RAISE EXCEPTION 'a hard-locked period is reopened only to open, with a reason, stamped by a principal that is not an agent' USING ERRCODE = 'LD011';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER periods_guard BEFORE UPDATE OR DELETE ON periods
  FOR EACH ROW EXECUTE FUNCTION ledger_periods_guard();
`
