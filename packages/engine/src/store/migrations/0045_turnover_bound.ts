/**
 * The amount bound held by the database (issue 38 item 12, ADR 0717's addendum): no statement of
 * lines may take an account's all-time debit or credit turnover past 9,007,199,254,740,991 cents
 * (Number.MAX_SAFE_INTEGER), past which no balance or report on it can be stated exactly.
 *
 * The engine checked the bound against the turnover it read before posting, which left out every
 * path that did not read it (approvals, migration imports, reversals), postings committing at the
 * same time, and a group-commit batch whose accounts were remembered from earlier batches (their
 * turnover as first read). The lines' own statement trigger now checks it, after adding the lines
 * to the totals, and refuses with SQLSTATE LD013.
 *
 * So that the check sees every posting committed before it, each statement of lines first takes a
 * transaction advisory lock per account it posts to (class 717, the account id), in key order: two
 * transactions posting to one account pass this point one after the other, and the later one's
 * sum (a new snapshot, READ COMMITTED) includes the earlier one's lines. Postings to one account in
 * one month already waited on each other for its monthly total row until commit; the lock extends
 * that to postings in different months. Every writer of the totals takes the locks before any total
 * row, in one order, so the daily and monthly rows are never waited on and the statement still
 * cannot deadlock with another single statement of lines.
 *
 * The check is one primary-key range of the monthly totals per account posted to (a few months'
 * rows), the same range the posting path's turnover read scans.
 */
export const sql = `
CREATE OR REPLACE FUNCTION ledger_lines_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  past record;
BEGIN
  PERFORM pg_advisory_xact_lock(717, touched.key)
    FROM (SELECT DISTINCT (l.account_id % 2147483647)::int AS key FROM new_lines l ORDER BY 1) touched;

  INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
    SELECT sums.company_id, sums.account_id, sums.day, sums.debit_cents, sums.credit_cents
    FROM (
      SELECT l.company_id, l.account_id, l.entry_date AS day,
        sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END) AS debit_cents,
        sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END) AS credit_cents
      FROM new_lines l
      GROUP BY 1, 2, 3
    ) sums
    WHERE (SELECT true FROM accounts a WHERE a.company_id = sums.company_id AND a.id = sums.account_id)
    ORDER BY sums.company_id, sums.account_id, sums.day
  ON CONFLICT (company_id, account_id, day) DO UPDATE SET
    debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_daily_totals.credit_cents + excluded.credit_cents;

  INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
    SELECT sums.company_id, sums.account_id, sums.month, sums.debit_cents, sums.credit_cents
    FROM (
      SELECT l.company_id, l.account_id, date_trunc('month', l.entry_date::timestamp)::date AS month,
        sum(CASE WHEN l.amount_cents > 0 THEN l.amount_cents ELSE 0 END) AS debit_cents,
        sum(CASE WHEN l.amount_cents < 0 THEN -l.amount_cents ELSE 0 END) AS credit_cents
      FROM new_lines l
      GROUP BY 1, 2, 3
    ) sums
    WHERE (SELECT true FROM accounts a WHERE a.company_id = sums.company_id AND a.id = sums.account_id)
    ORDER BY sums.company_id, sums.account_id, sums.month
  ON CONFLICT (company_id, account_id, month) DO UPDATE SET
    debit_cents = account_monthly_totals.debit_cents + excluded.debit_cents,
    credit_cents = account_monthly_totals.credit_cents + excluded.credit_cents;

  SELECT touched.company_id, touched.account_id, turnover.debit_cents, turnover.credit_cents INTO past
    FROM (SELECT DISTINCT l.company_id, l.account_id FROM new_lines l) touched
    CROSS JOIN LATERAL (SELECT coalesce(sum(t.debit_cents), 0) AS debit_cents, coalesce(sum(t.credit_cents), 0) AS credit_cents
      FROM account_monthly_totals t WHERE t.company_id = touched.company_id AND t.account_id = touched.account_id) turnover
    WHERE turnover.debit_cents > 9007199254740991 OR turnover.credit_cents > 9007199254740991
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'account % of company % would have total debits of % and credits of % cents, past 9007199254740991',
      past.account_id, past.company_id, past.debit_cents, past.credit_cents USING ERRCODE = 'LD013';
  END IF;
  RETURN NULL;
END $$;
`
