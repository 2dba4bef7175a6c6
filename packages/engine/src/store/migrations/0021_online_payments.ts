/**
 * The online-payments area's baseline (spec 3-endpoints-b 4.12, docs/online-payments.md): the
 * company's processor settings, pay links (token stored hashed), charges with their refunds and
 * disputes, payouts with their balance lines, and the processor events already applied (by id).
 */
export const sql = `
CREATE TABLE online_payment_settings (
  company_id uuid PRIMARY KEY REFERENCES companies,
  enabled boolean NOT NULL DEFAULT false,
  accept_card boolean NOT NULL DEFAULT true,
  accept_ach boolean NOT NULL DEFAULT false,
  accept_stablecoin boolean NOT NULL DEFAULT false,
  allow_partial boolean NOT NULL DEFAULT false,
  clearing_account text NOT NULL DEFAULT '1150',
  fees_account text NOT NULL DEFAULT '6010',
  refunds_account text NOT NULL DEFAULT '4900',
  chargebacks_account text NOT NULL DEFAULT '6010',
  payout_bank_account_id bigint,
  processor_account_id text UNIQUE,
  charges_enabled boolean NOT NULL DEFAULT false,
  payouts_enabled boolean NOT NULL DEFAULT false,
  details_submitted boolean NOT NULL DEFAULT false,
  updated_at timestamptz
);

CREATE TABLE online_pay_links (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  document_id bigint NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX online_pay_links_document ON online_pay_links (company_id, document_id);

CREATE TABLE online_charges (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  document_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  method text NOT NULL CHECK (method IN ('card', 'ach', 'stablecoin')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint CHECK (fee_cents >= 0),
  processor_payment_id text NOT NULL UNIQUE,
  paid_on date,
  payment_id bigint,
  fee_entry_id bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX online_charges_document ON online_charges (company_id, document_id, id);

CREATE TABLE online_refunds (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  charge_id bigint NOT NULL,
  processor_refund_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  entry_id bigint,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, charge_id) REFERENCES online_charges (company_id, id)
);

CREATE TABLE online_disputes (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  charge_id bigint NOT NULL,
  processor_dispute_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL,
  fee_cents bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'won', 'lost')),
  entry_id bigint,
  close_entry_id bigint,
  PRIMARY KEY (company_id, id),
  FOREIGN KEY (company_id, charge_id) REFERENCES online_charges (company_id, id)
);

CREATE TABLE online_payouts (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  processor_payout_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL,
  arrival_date date NOT NULL,
  status text NOT NULL CHECK (status IN ('paid', 'failed')),
  entry_id bigint,
  bank_line_id bigint,
  lines jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

CREATE TABLE online_payment_events (
  event_id text PRIMARY KEY,
  company_id uuid REFERENCES companies,
  type text NOT NULL,
  received_at timestamptz NOT NULL
);
`
