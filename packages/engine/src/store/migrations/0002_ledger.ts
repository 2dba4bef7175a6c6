/**
 * The ledger baseline: accounts, classes, periods, journal entries and their lines, the daily and
 * monthly totals per account, proposals, and the triggers that hold the money rules.
 *
 * The money rules hold in the database as well as in the engine:
 * - an entry has at least two lines, no line number twice, lines summing to exactly zero (signed
 *   cents: debits positive, credits negative) on accounts of the entry's company, and a stated
 *   total equal to its debits: DEFERRABLE INITIALLY DEFERRED constraint triggers check it at commit
 *   (an entry and its lines are inserted within one transaction, in any order), and check again an
 *   entry of an earlier transaction that a line is added to;
 * - posted entries and lines are append-only (UPDATE and DELETE raise);
 * - an entry dated in a hard-locked period is refused, and the check holds the period row
 *   FOR SHARE, so a concurrent hard lock (which takes the row FOR UPDATE) waits for the posting to
 *   commit, or the posting sees the lock;
 * - an account's code, type, parent and control never change, and accounts are never deleted.
 *
 * Balances come from `account_daily_totals` (company, account, day -> debits, credits) and
 * `account_monthly_totals` (the same by month), added by the database in the posting's own
 * statement from the lines themselves, so they cannot drift from them: a balance as of any date
 * sums at most one row per account and month and the loose days of one month, never the journal.
 *
 * A baseline (issue 18): each piece is made once, in its final form; "(was 0016, ADR 0714)" names
 * the old migration that last shaped it and the decision that explains it (0001_foundation.ts says
 * more).
 */

/**
 * The INSERT that adds a statement's lines (`new_lines`) to one table of totals: their sums by
 * company, account and period, in that order, each group's account found by its key (was 0016).
 */
const totalsAdded = (table: string, period: string, periodOfLine: string) => `
  INSERT INTO ${table} (company_id, account_id, ${period}, debit_cents, credit_cents)
    SELECT sums.company_id, sums.account_id, sums.${period}, sums.debit_cents, sums.credit_cents
    FROM (
      SELECT l.company_id, l.account_id, ${periodOfLine} AS ${period},
        sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END) AS debit_cents,
        sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END) AS credit_cents
      FROM new_lines l
      GROUP BY 1, 2, 3
    ) sums
    WHERE (SELECT true FROM accounts a WHERE a.company_id = sums.company_id AND a.id = sums.account_id)
    ORDER BY sums.company_id, sums.account_id, sums.${period}
  ON CONFLICT (company_id, account_id, ${period}) DO UPDATE SET
    debit_cents = ${table}.debit_cents + excluded.debit_cents,
    credit_cents = ${table}.credit_cents + excluded.credit_cents;`

export const sql = `
CREATE TABLE accounts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$' AND length(code) <= 20),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense')),
  subtype text CHECK (length(subtype) <= 60),
  parent_code text,
  control text CHECK (control IN ('ar', 'ap')),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  deactivated_at timestamptz,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, code),
  FOREIGN KEY (company_id, parent_code) REFERENCES accounts (company_id, code),
  CHECK (control IS NULL OR (control = 'ar' AND type = 'asset') OR (control = 'ap' AND type = 'liability')),
  CHECK (parent_code IS NULL OR parent_code <> code)
);

-- Accounts in code order by bytes, as lists page them (was 0013, ADR 0711). GET /v1/accounts orders
-- by code COLLATE "C" so that pages and cursors are the same on every database, whatever its
-- collation. The unique key on (company_id, code) uses the database's collation (C.UTF-8,
-- en_US.UTF-8, ...), which the planner cannot use for that order: every page sorted all of a
-- company's accounts to keep 101 (0.5 ms of a 2.1 ms read with 1,000 accounts,
-- docs/performance.md). This index lets a page read just its rows, from its cursor on, for a few
-- dozen bytes an account; accounts are few and rarely written.
CREATE INDEX accounts_by_code_bytes ON accounts (company_id, code COLLATE "C");

CREATE FUNCTION ledger_accounts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'accounts are never deleted' USING ERRCODE = 'LD001';
  END IF;
  IF NEW.code IS DISTINCT FROM OLD.code OR NEW.type IS DISTINCT FROM OLD.type
     OR NEW.control IS DISTINCT FROM OLD.control OR NEW.company_id IS DISTINCT FROM OLD.company_id
     OR NEW.parent_code IS DISTINCT FROM OLD.parent_code THEN
    RAISE EXCEPTION 'an account''s code, type, parent and control never change' USING ERRCODE = 'LD001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER accounts_guard BEFORE UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_guard();

CREATE TABLE account_defaults (
  company_id uuid PRIMARY KEY REFERENCES companies,
  income_code text,
  expense_code text,
  FOREIGN KEY (company_id, income_code) REFERENCES accounts (company_id, code),
  FOREIGN KEY (company_id, expense_code) REFERENCES accounts (company_id, code)
);

CREATE TABLE classes (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, name)
);

CREATE TABLE periods (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  start_date date NOT NULL,
  end_date date NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'soft_locked', 'hard_locked')),
  status_reason text,
  status_changed_at timestamptz,
  status_changed_by text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (end_date >= start_date AND end_date - start_date < 366)
);
CREATE INDEX periods_by_date ON periods (company_id, start_date, end_date);

-- No foreign keys from entries to companies or from lines to their entry and account (was 0006,
-- ADR 0703): a profile of PostgreSQL under 16 concurrent posters showed a fifth of its time in
-- foreign-key checks, each a query of its own that also locks the referenced row FOR KEY SHARE,
-- and every posting referenced the same company row. What they guaranteed is checked at commit by
-- the same pass that sums an entry's lines: every line's account must be an account of the
-- entry's company (accounts are never deleted and never change company, so no lock is needed), and
-- a line whose entry does not exist fails the stated-total check. An entry without a company
-- cannot pass either: it needs two lines on accounts of its company.
CREATE TABLE journal_entries (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  entry_date date NOT NULL,
  memo text,
  total_cents bigint NOT NULL CHECK (total_cents > 0),
  source_kind text NOT NULL,
  source_id bigint,
  reverses_entry_id bigint,
  proposal_id bigint,
  soft_lock_override_reason text,
  confidence double precision CHECK (confidence BETWEEN 0 AND 1),
  posted_by_type text NOT NULL,
  posted_by_id bigint,
  posted_by_name text,
  agent_model text,
  posted_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, reverses_entry_id) REFERENCES journal_entries (company_id, id)
);
-- An entry is reversed at most once.
CREATE UNIQUE INDEX journal_entries_reversal ON journal_entries (company_id, reverses_entry_id)
  WHERE reverses_entry_id IS NOT NULL;
CREATE INDEX journal_entries_by_date ON journal_entries (company_id, entry_date);

-- Journal lines laid out without padding, found by a non-unique index on their entry (was 0011,
-- ADR 0710). With line_no and entry_date (4 bytes each) before 8-byte columns, each was followed by
-- 4 bytes of padding, 88 bytes a line; widest first (16, then the 8-byte columns, then the two
-- 4-byte ones, then the memo) no byte is padding: 80 bytes. A primary key (company, entry, line
-- number) took 50 bytes a line: a unique index keeps one entry per line. Lines are found by
-- (company_id, entry_id) instead, not unique, which PostgreSQL deduplicates: the lines of one entry
-- share one index tuple, about 30 bytes a line. That an entry's line numbers do not repeat, which
-- the primary key kept, is one of the entry's money rules checked at commit
-- (ledger_entry_unsound_reason). The engine numbers lines 1 to n itself; the check is for SQL that
-- bypasses it, as the others are. (0011 rebuilt the table beside the old one, which still held the
-- names journal_lines_amount_cents_check and journal_lines_line_no_check, so its two checks were
-- named with a 1 after them; made once, they have the plain names. Nothing refers to them.)
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
  FOREIGN KEY (company_id, class_id) REFERENCES classes (company_id, id)
);
CREATE INDEX journal_lines_by_entry ON journal_lines (company_id, entry_id);
CREATE INDEX journal_lines_by_account ON journal_lines (company_id, account_id, entry_date);

-- Per-account daily and monthly totals: the source of every balance and report, added by
-- ledger_lines_totals (below) as lines are inserted. The monthly rows (was 0005, ADR 0201) keep a
-- balance as of a date to at most one row per month and 31 daily rows per account, however long
-- the company has been posting: summing daily rows alone reads one row per account and day (about
-- 550,000 rows for 1,000 accounts over two years). Nothing else writes them; a program that
-- writes daily totals must keep the monthly totals too (bench/reports.ts does).
CREATE TABLE account_daily_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  day date NOT NULL,
  debit_cents bigint NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
  credit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
  PRIMARY KEY (company_id, account_id, day),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id)
);

CREATE TABLE account_monthly_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  debit_cents bigint NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
  credit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
  PRIMARY KEY (company_id, account_id, month),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id)
);

-- The money rules of one entry, from the figures of its lines, as one SQL expression: the message
-- of the first rule the entry breaks, or NULL (was 0016, ADR 0714; the rules since 0006 and 0011,
-- ADRs 0703 and 0710). stated_total is NULL when the entry does not exist.
CREATE FUNCTION ledger_entry_unsound_reason(target_entry bigint, line_count bigint, line_sum numeric, debit_sum numeric,
  stated_total bigint, foreign_accounts bigint, line_numbers bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN line_count < 2 THEN
      format('journal entry %s has %s lines; an entry needs at least 2', target_entry, line_count)
    WHEN line_numbers <> line_count THEN
      format('journal entry %s has %s lines but %s line numbers; a line number may not repeat', target_entry,
        line_count, line_numbers)
    WHEN line_sum <> 0 THEN
      format('journal entry %s does not balance: its lines sum to %s cents', target_entry, line_sum)
    WHEN stated_total IS DISTINCT FROM debit_sum THEN
      format('journal entry %s states a total of %s cents but its debits are %s', target_entry,
        coalesce(stated_total::text, '<NULL>'), debit_sum)
    WHEN foreign_accounts > 0 THEN
      format('journal entry %s has %s lines on accounts that are not its company''s', target_entry, foreign_accounts)
  END
$$;

-- Raises the first rule broken (LD010).
CREATE FUNCTION ledger_entry_refuse_unsound(target_entry bigint, line_count bigint, line_sum numeric,
  debit_sum numeric, stated_total bigint, foreign_accounts bigint, line_numbers bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  reason text := ledger_entry_unsound_reason(target_entry, line_count, line_sum, debit_sum, stated_total,
    foreign_accounts, line_numbers);
BEGIN
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'LD010';
  END IF;
END $$;

-- The full check of one entry: its lines as they now are, and its stated total read from the
-- entry (was 0016). Each line's account is looked up by the accounts' key, (company, id): never a
-- scan of the accounts table, whatever the planner believes of its size.
CREATE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_refuse_unsound(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0),
      (SELECT total_cents FROM journal_entries WHERE company_id = target_company AND id = target_entry),
      count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
      count(DISTINCT l.line_no))
    FROM journal_lines l
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
END $$;

-- The memo of checked entries (was 0007, 0012 and 0016; ADRs 0705, 0714). A profile under the
-- engine-postings benchmark found PostgreSQL's triggers in 41 % of its time: at commit each entry's
-- deferred trigger ran a query of its own (mostly the executor's start-up), 16 a batch. So the
-- lines' statement triggers check an entry as soon as a statement gives it lines, and remember it
-- in the setting ledger.checked_entries, ",company:entry@statement=debits,", where statement is
-- the count of statements of lines so far in the transaction (ledger.line_statements). The commit
-- triggers then skip the query of an entry the memo shows unchanged since.
--
-- The count is needed because the memo lasts the whole transaction: with the checks run at once
-- (SET CONSTRAINTS ALL IMMEDIATE) an entry was checked at the end of its own statement, and a line
-- that a later statement added to it then skipped its check (was 0012). A memo entry holds only
-- while no statement of lines has run since. It stays bounded: past 16 KB it starts again, which
-- costs a full check at commit, never a missed one.

-- Every statement that inserts lines first counts itself: one call a statement, not a line. The
-- count is read where it is used, not through a SQL function: a line's trigger runs for every line,
-- and a function call there costs more than the read.
CREATE FUNCTION ledger_count_line_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('ledger.line_statements',
    (coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0')::bigint + 1)::text, true);
  RETURN NULL;
END $$;

-- The entries a statement gave lines to, each with its lines read by the entry's key and their
-- accounts by theirs (a lateral aggregate and a scalar subquery, which the planner cannot turn
-- into joins over whole tables). The entries' own rows are not read: their stated totals are
-- compared at commit, with the debits the memo keeps (",company:entry@statement=debits,"). The
-- rules are ledger_entry_unsound_reason's, with the debits given as the stated total.
-- It never refuses anything: an entry may be completed by a later statement of its transaction, and
-- the checks are deferred to commit. (A lookup of an entry row written in the same statement would
-- be planned from the table's statistics, and for a table that was empty when planned PostgreSQL
-- may pick an index on the company alone, a scan of all its entries.) A statement whose checked
-- entries would take the memo past 16 KB starts it again; one whose entries alone exceed that adds
-- none.
CREATE FUNCTION ledger_lines_entries_checked() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
  statement_count text := coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0');
  checked text;
BEGIN
  SELECT string_agg(',' || touched.company_id::text || ':' || touched.entry_id::text || '@' || statement_count
      || '=' || lines.debit_sum::text || ',', '')
    INTO checked
    FROM (SELECT DISTINCT company_id, entry_id FROM new_lines) touched
    CROSS JOIN LATERAL (
      SELECT count(*) AS line_count, coalesce(sum(l.amount_cents), 0) AS line_sum,
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0) AS debit_sum,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id))
          AS foreign_accounts,
        count(DISTINCT l.line_no) AS line_numbers
      FROM journal_lines l
      WHERE l.company_id = touched.company_id AND l.entry_id = touched.entry_id
    ) lines
    WHERE ledger_entry_unsound_reason(touched.entry_id, lines.line_count, lines.line_sum, lines.debit_sum,
      lines.debit_sum::bigint, lines.foreign_accounts, lines.line_numbers) IS NULL;
  IF checked IS NULL OR length(checked) > 16384 THEN
    RETURN NULL;
  END IF;
  IF length(memo) + length(checked) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries', memo || checked, true);
  RETURN NULL;
END $$;

-- At commit, each entry of the transaction. One found in the memo at the current statement count
-- with debits equal to its stated total has had no line added since (lines and entries are
-- immutable): it is not read again. Any other is checked in full. Either way it is then marked
-- checked for its lines' own triggers (was 0016).
CREATE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memo text := coalesce(current_setting('ledger.checked_entries', true), '');
  checked text := ',' || NEW.company_id::text || ':' || NEW.id::text || '@'
    || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0');
BEGIN
  IF position(checked || '=' || NEW.total_cents::text || ',' IN memo) = 0 THEN
    PERFORM ledger_entry_refuse_unsound(NEW.id, count(*), coalesce(sum(l.amount_cents), 0),
        coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0), NEW.total_cents,
        count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
        count(DISTINCT l.line_no))
      FROM journal_lines l
      WHERE l.company_id = NEW.company_id AND l.entry_id = NEW.id;
  END IF;
  IF length(memo) > 16384 THEN
    memo := '';
  END IF;
  PERFORM set_config('ledger.checked_entries', memo || checked || ',', true);
  RETURN NULL;
END $$;

-- At commit, each line: its entry is checked in full unless the entry's own commit trigger marked
-- it checked with no statement of lines since (was 0012). A line added to an entry of an earlier
-- transaction finds no such mark.
CREATE FUNCTION ledger_line_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF position(',' || NEW.company_id::text || ':' || NEW.entry_id::text || '@'
      || coalesce(nullif(current_setting('ledger.line_statements', true), ''), '0') || ','
      IN coalesce(current_setting('ledger.checked_entries', true), '')) = 0 THEN
    PERFORM ledger_entry_lines_check(NEW.company_id, NEW.entry_id);
  END IF;
  RETURN NULL;
END $$;

-- The totals are added per statement of lines, so that many entries can commit together (was 0007
-- and 0016, ADRs 0705 and 0714). Every INSERT of lines adds their sums, grouped by company,
-- account and day, to the daily rows in that order and then to the monthly rows in that order:
-- any two transactions of one statement of lines each lock total rows in the same order and
-- cannot deadlock (per entry, as it once was, a transaction of many entries would lock entry by
-- entry, not in one global order). The rows stay locked until the transaction ends, one statement
-- later for a batch. Lines on an account that is not their company's are left out: the commit
-- check refuses them and nothing of them is kept. Each group's account is found by its key, a
-- scalar subquery, which the planner cannot turn into a join over the whole table (a join hashed
-- every company's accounts from a sequential scan while the planner thought accounts few).
CREATE FUNCTION ledger_lines_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${totalsAdded("account_daily_totals", "day", "l.entry_date")}
${totalsAdded("account_monthly_totals", "month", "date_trunc('month', l.entry_date::timestamp)::date")}
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER journal_entries_committed AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_committed();
CREATE CONSTRAINT TRIGGER journal_lines_committed AFTER INSERT ON journal_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_line_committed();
CREATE TRIGGER journal_lines_statements BEFORE INSERT ON journal_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_count_line_statement();
CREATE TRIGGER journal_lines_entries_checked AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_entries_checked();
CREATE TRIGGER journal_lines_totals AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_totals();

-- Posted entries and lines are immutable: a correction is a reversal.
CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

-- Nothing posts into a hard-locked period. FOR SHARE makes a concurrent lock wait for this posting.
CREATE FUNCTION ledger_check_entry_period() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  period_status text;
BEGIN
  SELECT status INTO period_status FROM periods
    WHERE company_id = NEW.company_id AND start_date <= NEW.entry_date AND end_date >= NEW.entry_date
    FOR SHARE;
  IF period_status = 'hard_locked' THEN
    RAISE EXCEPTION 'the period containing % is hard-locked', NEW.entry_date USING ERRCODE = 'LD011';
  END IF;
  IF period_status = 'soft_locked' AND NEW.soft_lock_override_reason IS NULL THEN
    RAISE EXCEPTION 'the period containing % is soft-locked and no override reason was given', NEW.entry_date
      USING ERRCODE = 'LD011';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER journal_entries_period BEFORE INSERT ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_period();

-- A group commit's statement refuses itself when an account it posts to has changed since the
-- batch read it (was 0014, ADR 0712). The group commit's worker remembers the accounts and periods
-- that earlier batches read instead of reading them again before every batch (a round trip in each
-- batch's critical path); its one statement then counts, in its own snapshot, the accounts a line
-- names that still have the id, code, name and type the batch used and are still active. Fewer than
-- expected means a chart changed meanwhile: LD021, nothing of the batch is kept, its requests run
-- alone (and read the chart afresh), and the worker forgets what it remembered. Periods need no
-- check here: journal_entries_period refuses an entry into a period locked since (LD011).
CREATE FUNCTION ledger_batch_charts_current(current bigint, expected bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF current <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % accounts as it read them', current, expected USING ERRCODE = 'LD021';
  END IF;
  RETURN current;
END $$;

CREATE TABLE proposals (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  summary text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  entry_date date NOT NULL,
  entry jsonb NOT NULL,
  request jsonb NOT NULL,
  reasons jsonb NOT NULL,
  soft_lock_override_reason text,
  confidence double precision,
  created_by_type text NOT NULL,
  created_by_id bigint,
  created_by_name text,
  agent_model text,
  agent_run_id text,
  created_at timestamptz NOT NULL,
  decided_by_type text,
  decided_by_id bigint,
  decided_by_name text,
  decided_at timestamptz,
  decision_reason text,
  entry_id bigint,
  reverses_entry_id bigint,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries (company_id, id),
  FOREIGN KEY (company_id, reverses_entry_id) REFERENCES journal_entries (company_id, id),
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK (status <> 'approved' OR entry_id IS NOT NULL),
  CHECK (status <> 'rejected' OR decision_reason IS NOT NULL)
);
CREATE INDEX proposals_by_status ON proposals (company_id, status, id);
`
