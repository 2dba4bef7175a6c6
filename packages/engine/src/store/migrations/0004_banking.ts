/**
 * The banking baseline: bank accounts, statement imports, bank lines, rules, bank feeds and
 * reconciliations.
 *
 * A bank account is tied for good to one ledger account (its kind and ledger account never
 * change). Lines dedupe per bank account on `dedupe_key`: the statement's transaction id when it
 * has one, else a content hash. A reconciliation clears posted entries (by the net effect each has
 * on the ledger account); an entry is cleared at most once per bank account, and the items of a
 * finished reconciliation can only go away by undoing it.
 *
 * A baseline (issue 18; 0001_foundation.ts says more): every piece is as migration 0004 made it
 * (ADRs 0400-0404).
 */
export const sql = `
CREATE TABLE bank_accounts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('checking', 'savings', 'credit_card', 'other')),
  account_id bigint NOT NULL,
  institution text CHECK (length(institution) <= 200),
  mask text CHECK (length(mask) <= 34),
  csv_profile jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, account_id),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id)
);

CREATE FUNCTION banking_bank_accounts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'bank accounts are never deleted' USING ERRCODE = 'LD040';
  END IF;
  IF NEW.account_id <> OLD.account_id OR NEW.kind <> OLD.kind THEN
    RAISE EXCEPTION 'a bank account''s ledger account and kind never change' USING ERRCODE = 'LD040';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER bank_accounts_guard BEFORE UPDATE OR DELETE ON bank_accounts
  FOR EACH ROW EXECUTE FUNCTION banking_bank_accounts_guard();

CREATE TABLE statement_imports (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  bank_account_id bigint NOT NULL,
  format text NOT NULL CHECK (format IN ('ofx', 'qfx', 'csv', 'feed')),
  filename text,
  lines_read int NOT NULL CHECK (lines_read >= 0),
  lines_imported int NOT NULL CHECK (lines_imported >= 0),
  duplicates int NOT NULL CHECK (duplicates >= 0),
  first_date date,
  last_date date,
  statement_balance_cents bigint,
  created_by_type text NOT NULL,
  created_by_id bigint,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts (company_id, id)
);
CREATE INDEX statement_imports_by_account ON statement_imports (company_id, bank_account_id, id);

CREATE TABLE bank_feeds (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  item_id text NOT NULL,
  institution text,
  sealed_access_token text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'login_required', 'error')),
  include_pending boolean NOT NULL DEFAULT false,
  sync_cursor text,
  last_sync_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

CREATE TABLE bank_feed_accounts (
  company_id uuid NOT NULL,
  bank_feed_id bigint NOT NULL,
  account text NOT NULL,
  name text NOT NULL,
  mask text,
  kind text NOT NULL,
  bank_account_id bigint,
  import_from date,
  linked_at timestamptz,
  unlinked_at timestamptz,
  unlink_reason text,
  PRIMARY KEY (company_id, bank_feed_id, account),
  FOREIGN KEY (company_id, bank_feed_id) REFERENCES bank_feeds (company_id, id),
  FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts (company_id, id),
  CHECK ((linked_at IS NULL) = (bank_account_id IS NULL))
);
-- A bank account takes one feed account at a time.
CREATE UNIQUE INDEX bank_feed_accounts_one_per_bank_account ON bank_feed_accounts (company_id, bank_account_id)
  WHERE bank_account_id IS NOT NULL;

CREATE TABLE bank_lines (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  bank_account_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'unmatched'
    CHECK (status IN ('unmatched', 'proposed', 'matched', 'categorized', 'excluded')),
  line_date date NOT NULL,
  amount_cents bigint NOT NULL CHECK (abs(amount_cents) <= 1000000000000000),
  payee text,
  memo text,
  check_number text,
  statement_id text,
  dedupe_key text NOT NULL,
  source text NOT NULL CHECK (source IN ('file', 'feed')),
  import_id bigint,
  feed_transaction_id text,
  pending boolean NOT NULL DEFAULT false,
  entry_id bigint,
  proposal_id bigint,
  excluded_reason text,
  review text,
  withdrawn_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts (company_id, id),
  FOREIGN KEY (company_id, import_id) REFERENCES statement_imports (company_id, id),
  FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries (company_id, id),
  FOREIGN KEY (company_id, proposal_id) REFERENCES proposals (company_id, id),
  CHECK ((status IN ('matched', 'categorized')) = (entry_id IS NOT NULL)),
  CHECK (status <> 'proposed' OR proposal_id IS NOT NULL),
  CHECK ((status = 'excluded') = (excluded_reason IS NOT NULL)),
  CHECK (withdrawn_at IS NULL OR status IN ('unmatched', 'excluded'))
);
CREATE UNIQUE INDEX bank_lines_dedupe ON bank_lines (company_id, bank_account_id, dedupe_key);
CREATE UNIQUE INDEX bank_lines_feed_transaction ON bank_lines (company_id, bank_account_id, feed_transaction_id)
  WHERE feed_transaction_id IS NOT NULL;
-- An entry explains at most one line of a bank account (a transfer links one line in each of two).
CREATE UNIQUE INDEX bank_lines_entry ON bank_lines (company_id, bank_account_id, entry_id) WHERE entry_id IS NOT NULL;
CREATE INDEX bank_lines_by_account_date ON bank_lines (company_id, bank_account_id, line_date);
CREATE INDEX bank_lines_by_status ON bank_lines (company_id, status, id);

CREATE TABLE bank_rules (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  priority int NOT NULL,
  bank_account_id bigint,
  payee_contains text,
  direction text NOT NULL DEFAULT 'any' CHECK (direction IN ('in', 'out', 'any')),
  amount_min_cents bigint CHECK (amount_min_cents >= 0),
  amount_max_cents bigint CHECK (amount_max_cents >= 0),
  account_id bigint NOT NULL,
  class_name text,
  memo text,
  active boolean NOT NULL DEFAULT true,
  deactivated_reason text,
  deactivated_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts (company_id, id),
  FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id),
  CHECK (amount_min_cents IS NULL OR amount_max_cents IS NULL OR amount_min_cents <= amount_max_cents),
  CHECK (active = (deactivated_at IS NULL))
);
CREATE INDEX bank_rules_order ON bank_rules (company_id, active, priority, id);

-- Rules are never edited (spec 9): deactivation is the one change, and it is final.
CREATE FUNCTION banking_bank_rules_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'bank rules are never deleted' USING ERRCODE = 'LD041';
  END IF;
  IF NOT OLD.active OR NEW.active
     OR (NEW.name, NEW.priority, NEW.bank_account_id, NEW.payee_contains, NEW.direction, NEW.amount_min_cents,
         NEW.amount_max_cents, NEW.account_id, NEW.class_name, NEW.memo, NEW.created_at)
        IS DISTINCT FROM
        (OLD.name, OLD.priority, OLD.bank_account_id, OLD.payee_contains, OLD.direction, OLD.amount_min_cents,
         OLD.amount_max_cents, OLD.account_id, OLD.class_name, OLD.memo, OLD.created_at) THEN
    RAISE EXCEPTION 'bank rules are never edited: deactivate and add another' USING ERRCODE = 'LD041';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER bank_rules_guard BEFORE UPDATE OR DELETE ON bank_rules
  FOR EACH ROW EXECUTE FUNCTION banking_bank_rules_guard();

CREATE TABLE reconciliations (
  company_id uuid NOT NULL,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  bank_account_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'finished', 'cancelled', 'undone')),
  statement_date date NOT NULL,
  beginning_balance_cents bigint NOT NULL,
  statement_ending_balance_cents bigint NOT NULL,
  finished_at timestamptz,
  reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, bank_account_id) REFERENCES bank_accounts (company_id, id),
  CHECK ((status IN ('finished', 'undone')) = (finished_at IS NOT NULL)),
  CHECK (status NOT IN ('cancelled', 'undone') OR reason IS NOT NULL)
);
CREATE UNIQUE INDEX reconciliations_one_in_progress ON reconciliations (company_id, bank_account_id)
  WHERE status = 'in_progress';
CREATE INDEX reconciliations_by_account ON reconciliations (company_id, bank_account_id, status, statement_date);

CREATE TABLE reconciliation_items (
  company_id uuid NOT NULL,
  reconciliation_id bigint NOT NULL,
  bank_account_id bigint NOT NULL,
  entry_id bigint NOT NULL,
  entry_date date NOT NULL,
  amount_cents bigint NOT NULL,
  PRIMARY KEY (company_id, reconciliation_id, entry_id),
  FOREIGN KEY (company_id, reconciliation_id) REFERENCES reconciliations (company_id, id),
  FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries (company_id, id)
);
-- An entry is cleared at most once per bank account.
CREATE UNIQUE INDEX reconciliation_items_once ON reconciliation_items (company_id, bank_account_id, entry_id);

-- A finished reconciliation is immutable: only undo may move it (to undone), and its items go only then.
CREATE FUNCTION banking_reconciliations_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'reconciliations are never deleted' USING ERRCODE = 'LD042';
  END IF;
  IF OLD.status IN ('cancelled', 'undone') THEN
    RAISE EXCEPTION 'reconciliation % is closed', OLD.id USING ERRCODE = 'LD042';
  END IF;
  IF OLD.status = 'finished' AND (NEW.status <> 'undone' OR NEW.statement_date <> OLD.statement_date
      OR NEW.statement_ending_balance_cents <> OLD.statement_ending_balance_cents
      OR NEW.beginning_balance_cents <> OLD.beginning_balance_cents) THEN
    RAISE EXCEPTION 'reconciliation % is finished and immutable', OLD.id USING ERRCODE = 'LD042';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER reconciliations_guard BEFORE UPDATE OR DELETE ON reconciliations
  FOR EACH ROW EXECUTE FUNCTION banking_reconciliations_guard();

CREATE FUNCTION banking_reconciliation_items_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_status text;
  target_reconciliation bigint;
  target_company uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    target_reconciliation := OLD.reconciliation_id;
    target_company := OLD.company_id;
  ELSE
    target_reconciliation := NEW.reconciliation_id;
    target_company := NEW.company_id;
  END IF;
  SELECT status INTO parent_status FROM reconciliations WHERE company_id = target_company AND id = target_reconciliation;
  IF TG_OP = 'UPDATE' OR parent_status = 'finished' OR (TG_OP = 'INSERT' AND parent_status <> 'in_progress') THEN
    RAISE EXCEPTION 'the items of reconciliation % can no longer change', target_reconciliation USING ERRCODE = 'LD042';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER reconciliation_items_guard BEFORE INSERT OR UPDATE OR DELETE ON reconciliation_items
  FOR EACH ROW EXECUTE FUNCTION banking_reconciliation_items_guard();
`
