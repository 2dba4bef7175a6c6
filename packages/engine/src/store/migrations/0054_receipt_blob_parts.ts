/**
 * A sealed file past one part (BlobStore.ts, `partBytes`) is written and read a part per
 * statement: its first part stays in `receipt_blobs.ciphertext`, the rest are rows here, in order.
 * One 25 MB `bytea` in one statement held the request thread for hundreds of milliseconds on
 * PostgreSQL (the driver builds the whole message) and for seconds on the embedded store (ADR 2321);
 * a part at a time, the thread serves others between parts. Parts go with their file.
 */
export const sql = `
CREATE TABLE receipt_blob_parts (
  company_id uuid NOT NULL,
  blob_key text NOT NULL,
  part integer NOT NULL CHECK (part >= 1),
  bytes bytea NOT NULL,
  PRIMARY KEY (company_id, blob_key, part),
  FOREIGN KEY (company_id, blob_key) REFERENCES receipt_blobs (company_id, blob_key) ON DELETE CASCADE
);
`
