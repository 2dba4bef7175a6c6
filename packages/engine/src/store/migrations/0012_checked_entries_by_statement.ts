/**
 * An entry counts as checked only for the lines that existed when it was checked.
 *
 * Migration 0007 let a line's commit trigger skip the entry's full check when the entry had been
 * checked in the same transaction (`ledger.checked_entries`): in a batch, the entries' triggers run
 * first and have read every line. But the memo lasted the whole transaction. With the checks run
 * at once (`SET CONSTRAINTS ALL IMMEDIATE`) an entry was checked at the end of its own statement,
 * and a line that a later statement of the same transaction added to it then skipped its check:
 * an unbalanced entry could commit. The engine never runs its checks at once; SQL that bypasses
 * it could.
 *
 * Now every statement that inserts lines first counts itself (`ledger.line_statements`, a
 * statement-level BEFORE trigger: one call a statement, not a line), and the memo records each
 * entry with that count. A line skips the check only when its entry was checked with no statement
 * of lines since: at commit, where every line of the transaction is in, that is always so.
 */
export const sql = `
-- The count is read where it is used, not through a SQL function: a line's trigger runs for every
-- line, and a function call there costs more than the read.
CREATE FUNCTION ledger_count_line_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('ledger.line_statements',
    (coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0')::bigint + 1)::text, true);
  RETURN NULL;
END $$;

CREATE TRIGGER journal_lines_statements BEFORE INSERT ON journal_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_count_line_statement();

CREATE OR REPLACE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
BEGIN
  PERFORM ledger_entry_refuse_unsound(NEW.id, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), NEW.total_cents,
      count(*) FILTER (WHERE a.id IS NULL), count(DISTINCT l.line_no))
    FROM journal_lines l
    LEFT JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = NEW.company_id AND l.entry_id = NEW.id;
  IF length(memo) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries',
    memo || ',' || NEW.company_id::text || ':' || NEW.id::text || '@'
      || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0') || ',', true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ledger_line_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF position(',' || NEW.company_id::text || ':' || NEW.entry_id::text || '@'
      || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0') || ','
      IN coalesce(current_setting('ledger.checked_entries', true), '')) = 0 THEN
    PERFORM ledger_entry_lines_check(NEW.company_id, NEW.entry_id);
  END IF;
  RETURN NULL;
END $$;
`
