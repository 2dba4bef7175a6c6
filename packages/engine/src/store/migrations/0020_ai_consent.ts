/**
 * The ai-consent area's baseline (spec 3-endpoints-b 4.4, concepts 3.10): the company's section
 * 7216 requirement, consent records frozen from the template, and the 7216 log.
 */
export const sql = `
CREATE TABLE ai_7216_settings (
  company_id uuid PRIMARY KEY REFERENCES companies,
  required boolean NOT NULL DEFAULT false,
  firm_required boolean,
  updated_at timestamptz NOT NULL
);

CREATE TABLE ai_consents (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  version integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'valid_now', 'superseded', 'revoked', 'cancelled')),
  providers jsonb NOT NULL,
  provider_other_name text,
  provider_other_country text,
  data_categories jsonb NOT NULL,
  purposes jsonb NOT NULL,
  purpose_detail text,
  requested_valid_until date,
  valid_until date,
  firm_id bigint,
  supersedes bigint,
  due_date date,
  text text NOT NULL,
  text_sha256 text NOT NULL,
  signed_at timestamptz,
  signed_by text,
  signed_method text CHECK (signed_method IN ('typed', 'upload')),
  signer_user_id bigint,
  accepted_providers jsonb NOT NULL DEFAULT '[]',
  signed_pdf bytea,
  ended_at timestamptz,
  end_reason text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, id)
);

CREATE TABLE ai_7216_log (
  company_id uuid NOT NULL REFERENCES companies,
  id bigint NOT NULL DEFAULT nextval('ledger_ids'),
  at timestamptz NOT NULL,
  event text NOT NULL,
  consent_id bigint,
  agent_id bigint,
  actor text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (company_id, id)
);
`
