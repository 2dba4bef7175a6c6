/**
 * A `gov_csv` filing is a CSV a person uploads to the IRS portal (issue 38 item 7, ADR 2006): once
 * approved it is `approved`, its filed copy released for upload, until `ack` records the portal's
 * answer. No provider sends it, so it never passes through `submitted` on approval.
 */
export const sql = `
ALTER TABLE tax_filings
  DROP CONSTRAINT tax_filings_status_check,
  ADD CONSTRAINT tax_filings_status_check CHECK (status IN ('proposed', 'rejected', 'approved', 'failed', 'submitted', 'accepted',
    'partially_accepted', 'rejected_by_irs'));
`
