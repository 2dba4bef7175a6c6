/**
 * The ledger: accounts, classes, periods, journal entries and their lines, per-account daily
 * totals, and proposals.
 *
 * The money rules hold in the database as well as in the engine:
 * - every entry's lines sum to exactly zero (signed cents: debits positive, credits negative), an
 *   entry has at least two lines, and its stated total is its debits: DEFERRABLE INITIALLY
 *   DEFERRED constraint triggers check it at commit (an entry and its lines are inserted within
 *   one transaction, in any order), and refuse a line added to an entry of an earlier transaction;
 * - posted entries and lines are append-only (UPDATE and DELETE raise);
 * - an entry dated in a hard-locked period is refused, and the check holds the period row
 *   FOR SHARE, so a concurrent hard lock (which takes the row FOR UPDATE) waits for the posting to
 *   commit, or the posting sees the lock;
 * - an account's code, type and control never change, and accounts are never deleted.
 *
 * Balances for reports come from `account_daily_totals` (company, account, day -> debits,
 * credits), upserted by the database in the posting's transaction, at its commit, from the lines
 * themselves (so they cannot drift from them): a balance as of any date sums at most one row per
 * account and day, never the journal.
 */
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

CREATE TABLE journal_entries (
  company_id uuid NOT NULL REFERENCES companies,
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

CREATE TABLE journal_lines (
  company_id uuid NOT NULL,
  entry_id bigint NOT NULL,
  line_no int NOT NULL CHECK (line_no BETWEEN 1 AND 500),
  account_id bigint NOT NULL,
  entry_date date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0 AND abs(amount_cents) <= 1000000000000000),
  memo text,
  class_id bigint,
  contact_id bigint,
  PRIMARY KEY (company_id, entry_id, line_no),
  FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries (company_id, id),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id),
  FOREIGN KEY (company_id, class_id) REFERENCES classes (company_id, id)
);
CREATE INDEX journal_lines_by_account ON journal_lines (company_id, account_id, entry_date);

-- At commit, for each entry created in the transaction: its lines must number at least two, sum to
-- exactly zero and match its stated total; then its per-account sums are added to the daily
-- totals. Writing the totals at commit keeps a busy account's total row locked only while the
-- transaction commits, not for the rest of the request. ledger.checked_entry remembers the entry
-- just checked, so that its own lines' triggers (queued after it) need not sum the lines again;
-- a line added to an entry of an earlier transaction finds no such memo and is checked in full.
CREATE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line_count int;
  line_sum numeric;
  debit_sum numeric;
  stated_total bigint;
BEGIN
  SELECT count(*), coalesce(sum(amount_cents), 0), coalesce(sum(amount_cents) FILTER (WHERE amount_cents > 0), 0)
    INTO line_count, line_sum, debit_sum
    FROM journal_lines WHERE company_id = target_company AND entry_id = target_entry;
  SELECT total_cents INTO stated_total FROM journal_entries WHERE company_id = target_company AND id = target_entry;
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
END $$;

CREATE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_lines_check(NEW.company_id, NEW.id);
  -- Account order: concurrent commits touching the same accounts lock their rows in one order.
  INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
    SELECT NEW.company_id, account_id, NEW.entry_date,
      sum(CASE WHEN amount_cents > 0 THEN amount_cents ELSE 0 END),
      sum(CASE WHEN amount_cents < 0 THEN -amount_cents ELSE 0 END)
    FROM journal_lines WHERE company_id = NEW.company_id AND entry_id = NEW.id
    GROUP BY account_id ORDER BY account_id
  ON CONFLICT (company_id, account_id, day) DO UPDATE SET
    debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_daily_totals.credit_cents + excluded.credit_cents;
  PERFORM set_config('ledger.checked_entry', NEW.company_id::text || ':' || NEW.id::text, true);
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_line_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ledger.checked_entry', true) IS DISTINCT FROM NEW.company_id::text || ':' || NEW.entry_id::text THEN
    PERFORM ledger_entry_lines_check(NEW.company_id, NEW.entry_id);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER journal_entries_committed AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_committed();
CREATE CONSTRAINT TRIGGER journal_lines_committed AFTER INSERT ON journal_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_line_committed();

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

-- Per-account daily totals: the source of every balance and report, written by
-- ledger_entry_committed (above) when the posting commits. A table may be referenced by a function
-- body before it exists; it is created before any entry can be.
CREATE TABLE account_daily_totals (
  company_id uuid NOT NULL,
  account_id bigint NOT NULL,
  day date NOT NULL,
  debit_cents bigint NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
  credit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
  PRIMARY KEY (company_id, account_id, day),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id)
);

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
