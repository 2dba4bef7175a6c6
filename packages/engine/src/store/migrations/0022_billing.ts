/**
 * The billing area's baseline (spec 3-endpoints-b 4.13, docs/billing.md): each company's
 * subscription as the processor last confirmed it, a change scheduled for the period's end, the
 * company's own caps, and the invoices the processor charged.
 */
export const sql = `
CREATE TABLE billing_subscriptions (
  company_id uuid PRIMARY KEY REFERENCES companies,
  plan text CHECK (plan IN ('solo', 'business', 'advanced')),
  interval text CHECK (interval IN ('month', 'year')),
  status text NOT NULL DEFAULT 'none' CHECK (status IN ('none', 'trialing', 'active', 'past_due', 'canceled', 'incomplete')),
  customer_id text,
  subscription_id text UNIQUE,
  trial_ends_at timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  scheduled_plan text CHECK (scheduled_plan IN ('solo', 'business', 'advanced')),
  scheduled_interval text CHECK (scheduled_interval IN ('month', 'year')),
  feed_accounts integer NOT NULL DEFAULT 0,
  crypto_addon boolean NOT NULL DEFAULT false,
  overage_cap_cents bigint NOT NULL DEFAULT 0,
  updated_at timestamptz
);

CREATE TABLE billing_invoices (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  amount_cents bigint NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);
`
