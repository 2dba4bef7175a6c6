/**
 * Statement imports commit in batches (issue 19 item 8, docs/decisions/0408): an import's lines
 * are written a batch at a time, each batch in a short transaction of its own, so its record is
 * visible while it runs and says how far it got.
 *
 * - `status`: `importing` while batches are being written, `imported` once the last batch and the
 *   request's answer committed together. Rows written before this migration (and feed imports,
 *   written in one transaction) are `imported`.
 * - `lines_total`: the transactions the file holds, counted before the first write (null for a
 *   feed import and for imports made before this migration).
 * - `resume_key`: the import's claim to its request (a digest of the principal, the
 *   Idempotency-Key and the request): a retry under the same key after a crash finds the
 *   unfinished import and goes on from its last committed batch. Unique among unfinished imports,
 *   so two runs of one request never write two imports.
 */
export const sql = `
ALTER TABLE statement_imports
  ADD COLUMN status text NOT NULL DEFAULT 'imported' CHECK (status IN ('importing', 'imported')),
  ADD COLUMN lines_total int CHECK (lines_total >= 0),
  ADD COLUMN resume_key text CHECK (length(resume_key) <= 128);

CREATE UNIQUE INDEX statement_imports_resume ON statement_imports (company_id, resume_key)
  WHERE status = 'importing' AND resume_key IS NOT NULL;
`
