/**
 * Idempotency records in fewer bytes (docs/decisions/0706-stored-answers-packed.md).
 *
 * `answer` is the answer's JSON text packed by StoredAnswer.ts (a format byte, then the text
 * deflated against that format's dictionary). New records keep it instead of `body`; `body` stays
 * for the records written before this migration, which are read as they were until they expire
 * (Limits.idempotencyRetentionDays). Exactly one of the two is set.
 *
 * The request's hash stays 64 hexadecimal characters: as 32 bytes (`bytea`) it saved 33 bytes a
 * record but measured a fifth fewer postings a second on PostgreSQL (ADR 0706).
 */
export const sql = `
ALTER TABLE idempotency_records ALTER COLUMN body DROP NOT NULL;
ALTER TABLE idempotency_records ADD COLUMN answer bytea;
ALTER TABLE idempotency_records ADD CONSTRAINT idempotency_records_one_answer
  CHECK ((body IS NULL) <> (answer IS NULL));
`
