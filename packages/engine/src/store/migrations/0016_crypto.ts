/**
 * The crypto area's baseline: Crypto receipts (spec 3-endpoints-b 4.11). Watch-only wallets (their
 * keys sealed), the addresses handed out, quotes, receipts seen on chain, lots and their relief by
 * disposals, valuations and fair-value remeasurements. Amounts in an asset's smallest unit are
 * numeric(40,0) (never floats); money is integer cents.
 */
export const sql = `
ALTER TABLE companies ADD COLUMN crypto_addon boolean NOT NULL DEFAULT false;

CREATE TABLE crypto_settings (
  company_id uuid PRIMARY KEY REFERENCES companies,
  enabled boolean NOT NULL DEFAULT false,
  quote_minutes int NOT NULL CHECK (quote_minutes BETWEEN 5 AND 1440),
  btc_confirmations int NOT NULL CHECK (btc_confirmations BETWEEN 1 AND 6),
  xmr_confirmations int NOT NULL CHECK (xmr_confirmations BETWEEN 10 AND 30),
  remeasure boolean NOT NULL DEFAULT false,
  realized_account text,
  unrealized_account text,
  settlement_account text,
  fair_value_account text,
  fee_account text,
  updated_at timestamptz NOT NULL
);

CREATE TABLE crypto_wallets (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  rail text NOT NULL CHECK (rail IN ('btc', 'xmr', 'usdc_base', 'usdc_ethereum', 'usdc_solana', 'usdt_ethereum', 'usdt_tron')),
  asset text NOT NULL CHECK (asset IN ('BTC', 'XMR', 'USDC', 'USDT')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  key_kind text NOT NULL CHECK (key_kind IN ('extended_public_key', 'descriptor', 'address', 'view_key')),
  script_type text NOT NULL,
  network text NOT NULL CHECK (network IN ('mainnet', 'testnet', 'stagenet')),
  sealed_key text NOT NULL,
  key_fingerprint text NOT NULL,
  address text,
  restore_height bigint,
  lot_method text NOT NULL CHECK (lot_method IN ('fifo', 'specific')),
  gap_limit int NOT NULL CHECK (gap_limit BETWEEN 1 AND 1000),
  next_index int NOT NULL DEFAULT 0 CHECK (next_index >= 0),
  last_paid_index int NOT NULL DEFAULT -1,
  ledger_account text NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  archive_reason text,
  archived_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  CHECK (archived = (archive_reason IS NOT NULL))
);
CREATE UNIQUE INDEX crypto_wallets_key ON crypto_wallets (company_id, rail, key_fingerprint) WHERE NOT archived;

CREATE TABLE crypto_quotes (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  wallet_id bigint NOT NULL,
  document_id bigint NOT NULL,
  asset text NOT NULL,
  address text NOT NULL,
  address_index int,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  price text NOT NULL,
  amount_units numeric(40, 0) NOT NULL CHECK (amount_units > 0),
  received_units numeric(40, 0) NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid', 'underpaid', 'overpaid', 'expired', 'cancelled')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets (company_id, id),
  FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id)
);
CREATE INDEX crypto_quotes_open ON crypto_quotes (company_id, wallet_id) WHERE status = 'open';
CREATE UNIQUE INDEX crypto_quotes_address ON crypto_quotes (company_id, wallet_id, address) WHERE address_index IS NOT NULL;

CREATE TABLE crypto_lots (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  wallet_id bigint NOT NULL,
  asset text NOT NULL,
  source text NOT NULL CHECK (source IN ('acquisition', 'receipt', 'transfer')),
  acquired_at timestamptz NOT NULL,
  units numeric(40, 0) NOT NULL CHECK (units > 0),
  remaining_units numeric(40, 0) NOT NULL CHECK (remaining_units >= 0 AND remaining_units <= units),
  cost_cents bigint NOT NULL CHECK (cost_cents >= 0),
  remaining_cost_cents bigint NOT NULL CHECK (remaining_cost_cents >= 0 AND remaining_cost_cents <= cost_cents),
  entry_id bigint,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets (company_id, id)
);
CREATE INDEX crypto_lots_open ON crypto_lots (company_id, wallet_id, acquired_at, id) WHERE remaining_units > 0;

CREATE TABLE crypto_receipts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  wallet_id bigint NOT NULL,
  quote_id bigint,
  asset text NOT NULL,
  txid text NOT NULL,
  output_index int NOT NULL,
  address text NOT NULL,
  units numeric(40, 0) NOT NULL CHECK (units > 0),
  confirmations int NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'assigned', 'ignored')),
  payment text CHECK (payment IN ('exact', 'under', 'over', 'late')),
  document_id bigint,
  price text,
  value_cents bigint,
  account text,
  entry_id bigint,
  lot_id bigint,
  memo text,
  reason text,
  seen_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  assigned_at timestamptz,
  assigned_by text,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets (company_id, id),
  UNIQUE (company_id, wallet_id, txid, output_index)
);
CREATE INDEX crypto_receipts_by_status ON crypto_receipts (company_id, status, id);

CREATE TABLE crypto_disposals (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  wallet_id bigint NOT NULL,
  asset text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sell', 'spend', 'transfer', 'fee', 'other')),
  disposed_at timestamptz NOT NULL,
  units numeric(40, 0) NOT NULL CHECK (units > 0),
  proceeds_cents bigint NOT NULL,
  cost_cents bigint NOT NULL,
  short_term_gain_cents bigint NOT NULL,
  long_term_gain_cents bigint NOT NULL,
  to_wallet_id bigint,
  counter_account text,
  txid text,
  memo text,
  entry_id bigint,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, wallet_id) REFERENCES crypto_wallets (company_id, id)
);
CREATE INDEX crypto_disposals_by_date ON crypto_disposals (company_id, disposed_at, id);

CREATE TABLE crypto_reliefs (
  company_id uuid NOT NULL REFERENCES companies,
  disposal_id bigint NOT NULL,
  lot_id bigint NOT NULL,
  units numeric(40, 0) NOT NULL CHECK (units > 0),
  cost_cents bigint NOT NULL,
  proceeds_cents bigint NOT NULL,
  term text NOT NULL CHECK (term IN ('short', 'long')),
  PRIMARY KEY (company_id, disposal_id, lot_id),
  FOREIGN KEY (company_id, disposal_id) REFERENCES crypto_disposals (company_id, id),
  FOREIGN KEY (company_id, lot_id) REFERENCES crypto_lots (company_id, id)
);

CREATE TABLE crypto_valuations (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  asset text NOT NULL CHECK (asset IN ('BTC', 'XMR', 'USDC', 'USDT')),
  at timestamptz NOT NULL,
  price text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('proposed', 'confirmed', 'rejected')),
  manual boolean NOT NULL,
  proposed_by text NOT NULL,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX crypto_valuations_by_asset ON crypto_valuations (company_id, asset, at DESC) WHERE status = 'confirmed';

CREATE TABLE crypto_remeasurements (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  period_end date NOT NULL,
  adjustment_cents bigint NOT NULL,
  entry_id bigint,
  reversal_entry_id bigint,
  lines jsonb NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, period_end)
);
`
