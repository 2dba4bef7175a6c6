/**
 * The reports baseline: what reports read beyond the ledger's tables.
 *
 * The monthly totals reports read are the ledger's (0002_ledger.ts; they were made here, as
 * migration 0005, ADR 0201, and the posting path has kept them since 0006, ADR 0703): the ledger's
 * posting triggers write them in the same statement as the daily totals, and an area below reports
 * cannot write a table above it.
 *
 * A balance as of a date is the sum of an account's whole months before that date's month plus
 * the days of its month up to the date. Those loose days at the ends of a range (for a balance,
 * the days of as_of's month up to it, or after it when fewer) are read for the whole chart at once
 * by (company, day): one index range of at most about 15,000 rows for 1,000 accounts, rather than
 * 1,000 probes of the primary key (was 0005, ADR 0201).
 *
 * A baseline (issue 18; 0001_foundation.ts says more).
 */
export const sql = `
CREATE INDEX account_daily_totals_by_day ON account_daily_totals (company_id, day);
`
