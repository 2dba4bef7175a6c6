/**
 * A group commit's statement refuses itself when an account it posts to has changed since the
 * batch read it (docs/decisions/0712-charts-remembered-between-batches.md).
 *
 * The group commit's worker remembers the accounts and periods that earlier batches read, instead
 * of reading them again before every batch (a round trip in each batch's critical path). Its one
 * statement then checks what it relied on, in the statement's own snapshot: every account a line
 * names must still have the id, code, name and type the batch used, and still be active. Fewer
 * than expected means a chart changed meanwhile; `ledger_batch_charts_current` raises LD021,
 * nothing of the batch is kept, its requests run alone (and read the chart afresh), and the worker
 * forgets what it remembered. Periods need no check here: `journal_entries_period` already refuses
 * an entry into a period locked since (LD011, migration 0002).
 */
export const sql = `
CREATE FUNCTION ledger_batch_charts_current(current bigint, expected bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF current <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % accounts as it read them', current, expected USING ERRCODE = 'LD021';
  END IF;
  RETURN current;
END $$;
`
