/**
 * Idempotency records keyed by one 16-byte scope (docs/decisions/0708-idempotency-scope.md).
 *
 * A record was keyed by its tenant ('company:<uuid>', 45 bytes), principal and key as text, in
 * the row and again in its primary key, and kept the operation and when it was made beside the
 * request's hash as 64 hexadecimal characters: 531 of a posting's 1,651 bytes. Now:
 *
 * - `scope` is the first 16 bytes of SHA-256 over tenant, principal and key joined by newlines
 *   (no part can hold one: a key with a control character is refused, spec 8.2), as a uuid: a
 *   fixed 16 bytes, compared as bytes, not as collated text. `ledger_idempotency_scope` is its
 *   one definition; the engine never computes it itself.
 * - `request_hash` is the first 16 bytes of the request's SHA-256 fingerprint, which covers the
 *   operation: a key reused for another operation is a different hash (`idempotency_conflict`
 *   either way), so the operation is not kept.
 * - `created_at` is gone: a record made now expires `Limits.idempotencyRetentionDays` later, and
 *   an expired record is replaced by comparing expiries (Idempotency.replacingExpired).
 *
 * Finished records are carried over under their scope, their hash cut to its first 16 bytes (what
 * the engine now computes), so a retry that straddles the upgrade still replays; expired ones go
 * with the next purge, as before.
 */
export const sql = `
-- STABLE, as convert_to is: PostgreSQL inlines a SQL function into the statement that calls it only
-- when the function is no less volatile than its body. Declared IMMUTABLE it ran as a function
-- call, planned afresh in every statement: about 40 µs more a lookup, and more per record of a
-- group commit.
CREATE FUNCTION ledger_idempotency_scope(tenant text, principal text, idempotency_key text) RETURNS uuid
  LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT encode(substring(sha256(convert_to(tenant || chr(10) || principal || chr(10) || idempotency_key, 'UTF8'))
    FROM 1 FOR 16), 'hex')::uuid
$$;

ALTER TABLE idempotency_records RENAME TO idempotency_records_0001;
ALTER INDEX idempotency_records_pkey RENAME TO idempotency_records_0001_pkey;
ALTER INDEX idempotency_records_expires_at RENAME TO idempotency_records_0001_expires_at;

-- Fixed-width columns first, widest alignment first, so no byte of a row is padding.
CREATE TABLE idempotency_records (
  scope uuid PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  status int NOT NULL,
  request_hash bytea NOT NULL CHECK (length(request_hash) = 16),
  answer bytea,
  body json,
  CONSTRAINT idempotency_records_one_answer CHECK ((body IS NULL) <> (answer IS NULL))
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

INSERT INTO idempotency_records (scope, expires_at, status, request_hash, answer, body)
  SELECT ledger_idempotency_scope(tenant, principal, idempotency_key), expires_at, status,
    substring(decode(request_hash, 'hex') FROM 1 FOR 16), answer, body
  FROM idempotency_records_0001
  WHERE status <> 0;

DROP TABLE idempotency_records_0001;
`
