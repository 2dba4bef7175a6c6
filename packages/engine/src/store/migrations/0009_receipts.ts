/**
 * The receipts area's baseline: receipts, their encrypted files, the receipt inbox and its
 * messages (spec 3-endpoints-b 4.1, concepts 3.7 and 8.2). Every table is keyed by company.
 */
export const sql = `
CREATE TABLE receipt_blobs (
  company_id uuid NOT NULL REFERENCES companies,
  blob_key text NOT NULL,
  iv bytea NOT NULL,
  ciphertext bytea NOT NULL,
  PRIMARY KEY (company_id, blob_key)
);

CREATE TABLE receipt_inboxes (
  company_id uuid PRIMARY KEY REFERENCES companies,
  enabled boolean NOT NULL DEFAULT true,
  token text NOT NULL UNIQUE,
  slug text UNIQUE,
  previous_slug text UNIQUE,
  previous_slug_until timestamptz,
  allowed_senders jsonb NOT NULL DEFAULT '[]',
  rotated_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE receipt_inbox_retired (
  token text PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies,
  retired_at timestamptz NOT NULL
);

CREATE TABLE receipt_inbox_refusals (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  address text NOT NULL,
  sender text NOT NULL,
  refused_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

CREATE TABLE receipt_inbox_messages (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  status text NOT NULL CHECK (status IN ('processed', 'review', 'quarantined', 'rejected', 'duplicate', 'released', 'discarded', 'expired')),
  sender text NOT NULL,
  recipient text NOT NULL,
  subject text,
  message_id text,
  spf text NOT NULL,
  dkim text NOT NULL,
  dmarc text NOT NULL,
  reasons jsonb NOT NULL DEFAULT '[]',
  attachments jsonb NOT NULL DEFAULT '[]',
  received_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  decision_reason text,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX receipt_inbox_messages_message_id ON receipt_inbox_messages (company_id, message_id)
  WHERE message_id IS NOT NULL AND status <> 'duplicate';

CREATE TABLE receipts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  discarded boolean NOT NULL DEFAULT false,
  discarded_reason text,
  source text NOT NULL CHECK (source IN ('email', 'upload', 'camera')),
  file_name text NOT NULL,
  media_type text NOT NULL CHECK (media_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'text/html')),
  has_snapshot boolean NOT NULL DEFAULT false,
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  sha256 text NOT NULL,
  note text,
  text_content text,
  vendor text,
  receipt_date date,
  total_cents bigint CHECK (total_cents >= 0),
  tax_cents bigint CHECK (tax_cents >= 0),
  subtotal_cents bigint CHECK (subtotal_cents >= 0),
  payment_method text CHECK (payment_method IN ('cash', 'card', 'other')),
  edited_fields jsonb NOT NULL DEFAULT '[]',
  extraction_status text NOT NULL DEFAULT 'none' CHECK (extraction_status IN ('none', 'read', 'not_configured', 'failed')),
  extraction_by text,
  extraction_fields jsonb NOT NULL DEFAULT '[]',
  extraction_message text,
  extracted_at timestamptz,
  bank_line_id bigint,
  document_id bigint,
  entry_id bigint,
  proposal_id bigint,
  inbox_message_id bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, sha256),
  FOREIGN KEY (company_id, bank_line_id) REFERENCES bank_lines (company_id, id),
  FOREIGN KEY (company_id, entry_id) REFERENCES journal_entries (company_id, id),
  FOREIGN KEY (company_id, proposal_id) REFERENCES proposals (company_id, id)
);
CREATE INDEX receipts_newest ON receipts (company_id, id DESC);
CREATE INDEX receipts_bank_line ON receipts (company_id, bank_line_id) WHERE bank_line_id IS NOT NULL;
`
