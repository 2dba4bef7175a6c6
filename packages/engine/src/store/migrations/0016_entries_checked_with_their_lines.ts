/**
 * An entry's money rules checked once for every statement of lines, not once an entry at commit;
 * and a line's account found by its key (docs/decisions/0714-entries-checked-with-their-lines.md).
 *
 * A profile of PostgreSQL under the engine-postings benchmark (`perf`, 16 callers, 1,000 accounts)
 * found its triggers in 41 % of its time. At commit, each entry's deferred trigger ran a query of
 * its own (its lines, their accounts and five aggregates: mostly the executor's start-up), 16 a
 * batch; and the totals trigger joined a statement's lines to the accounts of every company, which
 * the planner hashed from a sequential scan of the whole table while it thought accounts few.
 *
 * - `ledger_entry_unsound_reason` states the money rules once, as a SQL expression: the message of
 *   the first rule an entry breaks, or NULL. `ledger_entry_refuse_unsound` raises that message
 *   (LD010), as before.
 * - A statement-level trigger after every INSERT of lines checks, in one query, each entry the
 *   statement gave lines to: its lines are read by the entry's key and their accounts by theirs,
 *   and an entry whose lines keep every rule but the stated total is added to the memo of checked
 *   entries (migration 0012) with the statement's number and its debits. It never refuses
 *   anything: an entry may be completed by a later statement of its transaction, and the checks are
 *   deferred to commit. It does not read the entries' rows: a lookup of a row written in the same
 *   statement is planned from the table's statistics, and for a table that was empty when planned
 *   PostgreSQL may pick an index on the company alone, a scan of all its entries.
 * - At commit, an entry found in the memo at the current statement number with debits equal to its
 *   stated total has had no line added since (lines and entries are immutable), so its trigger
 *   skips its query and marks it checked for its lines' triggers, as a full check does. Any other
 *   entry is checked as before.
 * - A line's account is looked up by the accounts' key, (company, id), for each line or group of
 *   lines: never a scan of the accounts table, whatever the planner believes of its size.
 *
 * The memo stays bounded: a statement whose checked entries would take it past 16 KB starts it
 * again, and one whose entries alone exceed that adds none (a skipped memo costs a full check at
 * commit, never a missed one).
 */

/**
 * The INSERT that adds a statement's lines (`new_lines`) to one table of totals: their sums by
 * company, account and period, in that order, each group's account found by its key.
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

CREATE OR REPLACE FUNCTION ledger_entry_refuse_unsound(target_entry bigint, line_count bigint, line_sum numeric,
  debit_sum numeric, stated_total bigint, foreign_accounts bigint, line_numbers bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  reason text := ledger_entry_unsound_reason(target_entry, line_count, line_sum, debit_sum, stated_total,
    foreign_accounts, line_numbers);
BEGIN
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'LD010';
  END IF;
END $$;

CREATE OR REPLACE FUNCTION ledger_entry_lines_check(target_company uuid, target_entry bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_refuse_unsound(target_entry, count(*), coalesce(sum(l.amount_cents), 0),
      coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0),
      (SELECT total_cents FROM journal_entries WHERE company_id = target_company AND id = target_entry),
      count(*) FILTER (WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.company_id = l.company_id AND a.id = l.account_id)),
      count(DISTINCT l.line_no))
    FROM journal_lines l
    WHERE l.company_id = target_company AND l.entry_id = target_entry;
END $$;

-- An entry whose lines the last statement of lines found sound, with debits equal to its stated
-- total, is not read again; it is marked checked for its lines' own triggers, as a full check does.
CREATE OR REPLACE FUNCTION ledger_entry_committed() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- The entries a statement gave lines to, each with its lines read by the entry's key and their
-- accounts by theirs (a lateral aggregate and a scalar subquery, which the planner cannot turn
-- into joins over whole tables). The entries' own rows are not read: their stated totals are
-- compared at commit, with the debits the memo keeps (",company:entry@statement=debits,"). The
-- rules are ledger_entry_unsound_reason's, with the debits given as the stated total.
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

CREATE TRIGGER journal_lines_entries_checked AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_entries_checked();

-- The lines' sums by account and day, then by account and month, each group's account found by
-- its key: a scalar subquery, which the planner cannot turn into a join over the whole table.
CREATE OR REPLACE FUNCTION ledger_lines_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${totalsAdded("account_daily_totals", "day", "l.entry_date")}
${totalsAdded("account_monthly_totals", "month", "date_trunc('month', l.entry_date::timestamp)::date")}
  RETURN NULL;
END $$;
`
