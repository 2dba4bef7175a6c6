/**
 * Journal lines laid out without padding, found by a non-unique index on their entry
 * (docs/decisions/0710-journal-lines-layout.md).
 *
 * A line was 88 bytes in the heap: `line_no` (4 bytes) and `entry_date` (4 bytes) each sat before
 * an 8-byte column, so each was followed by 4 bytes of padding. Its primary key (company, entry,
 * line number) took 50 bytes a line: a unique index keeps one entry per line. Now:
 *
 * - the columns go widest first (16, then the 8-byte ones, then the two 4-byte ones, then the
 *   memo), so no byte of a line is padding: 80 bytes;
 * - lines are found by `(company_id, entry_id)`, not unique, which PostgreSQL deduplicates: the
 *   lines of one entry share one index tuple, about 30 bytes a line instead of 50;
 * - that an entry's line numbers do not repeat, which the primary key kept, is now part of the
 *   entry's commit check (`ledger_entry_refuse_unsound`), beside its other money rules. The
 *   engine numbers lines 1 to n itself; the check is for SQL that bypasses it, as the others are.
 *
 * The table is rebuilt: every line is copied in entry order, then the indexes, the constraints
 * and the triggers are made again as they were. The copy adds nothing to the totals (the totals
 * trigger is made after it) and checks nothing again (the lines were checked when they were
 * posted).
 */
export const sql = `
ALTER TABLE journal_lines RENAME TO journal_lines_0002;
ALTER INDEX journal_lines_pkey RENAME TO journal_lines_0002_pkey;
ALTER INDEX journal_lines_by_account RENAME TO journal_lines_0002_by_account;
ALTER TABLE journal_lines_0002 RENAME CONSTRAINT journal_lines_company_id_class_id_fkey TO journal_lines_0002_class_fkey;
DROP TRIGGER journal_lines_committed ON journal_lines_0002;
DROP TRIGGER journal_lines_immutable ON journal_lines_0002;
DROP TRIGGER journal_lines_totals ON journal_lines_0002;

-- Widest first, so that no byte of a row is padding.
CREATE TABLE journal_lines (
  company_id uuid NOT NULL,
  entry_id bigint NOT NULL,
  account_id bigint NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0 AND abs(amount_cents) <= 1000000000000000),
  class_id bigint,
  contact_id bigint,
  entry_date date NOT NULL,
  line_no int NOT NULL CHECK (line_no BETWEEN 1 AND 500),
  memo text,
  CONSTRAINT journal_lines_company_id_class_id_fkey FOREIGN KEY (company_id, class_id) REFERENCES classes (company_id, id)
);

INSERT INTO journal_lines (company_id, entry_id, account_id, amount_cents, class_id, contact_id, entry_date, line_no, memo)
  SELECT company_id, entry_id, account_id, amount_cents, class_id, contact_id, entry_date, line_no, memo
  FROM journal_lines_0002
  ORDER BY company_id, entry_id, line_no;

DROP TABLE journal_lines_0002;

CREATE INDEX journal_lines_by_entry ON journal_lines (company_id, entry_id);
CREATE INDEX journal_lines_by_account ON journal_lines (company_id, account_id, entry_date);

-- The money rules of one entry (migration 0006), and that its line numbers do not repeat.
DROP FUNCTION ledger_entry_refuse_unsound(bigint, bigint, numeric, numeric, bigint, bigint);
CREATE FUNCTION ledger_entry_refuse_unsound(target_entry bigint, line_count bigint, line_sum numeric, debit_sum numeric,
  stated_total bigint, foreign_accounts bigint, line_numbers bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF line_count < 2 THEN
    RAISE EXCEPTION 'journal entry % has % lines; an entry needs at least 2', target_entry, line_count
      USING ERRCODE = 'LD010';
  END IF;
  IF line_numbers <> line_count THEN
    RAISE EXCEPTION 'journal entry % has % lines but % line numbers; a line number may not repeat', target_entry,
      line_count, line_numbers USING ERRCODE = 'LD010';
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

CREATE OR REPLACE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_refuse_unsound(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0),
      (SELECT total_cents FROM journal_entries WHERE company_id = target_company AND id = target_entry),
      count(*) FILTER (WHERE a.id IS NULL), count(DISTINCT l.line_no))
    FROM journal_lines l
    LEFT JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
END $$;

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
  PERFORM set_config('ledger.checked_entries', memo || ',' || NEW.company_id::text || ':' || NEW.id::text || ',', true);
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER journal_lines_committed AFTER INSERT ON journal_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_line_committed();
CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_lines_totals AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_totals();
`
