/**
 * AI apps' limits and client documents, and the section 7216 gate in one place (issue 24;
 * docs/ai-apps.md, ADRs 1702, 1706, 1707):
 *
 * - `ai_connection_usage`: what a `post` app posted per company per UTC day, counted by a
 *   conditional upsert in the posting's own transaction (ai-apps/PostingLimits.ts), so concurrent
 *   postings cannot pass the daily cap together. It replaces the reading of today's entries at
 *   authentication, whose index goes.
 * - `oauth_clients` remembers when a client ID metadata document was fetched and until when it is
 *   trusted (ai-apps/ClientDocuments.ts).
 * - `ledger_ai_consent_gate`: why an agent or app is kept out by a 7216 requirement
 *   (`undeclared`, `not_covered`) or null; every credential that acts as an agent asks it.
 */
export const sql = `
CREATE TABLE ai_connection_usage (
  connection_id bigint NOT NULL REFERENCES ai_connections,
  company_id uuid NOT NULL,
  day date NOT NULL,
  posted_cents bigint NOT NULL CHECK (posted_cents >= 0),
  PRIMARY KEY (connection_id, company_id, day)
);

DROP INDEX IF EXISTS journal_entries_by_agent;

ALTER TABLE oauth_clients ADD COLUMN document_fetched_at timestamptz;
ALTER TABLE oauth_clients ADD COLUMN document_expires_at timestamptz;

CREATE FUNCTION ledger_ai_consent_gate(gate_company uuid, gate_provider text, gate_today date) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN NOT coalesce((SELECT s.required OR s.firm_required IS TRUE FROM ai_7216_settings s WHERE s.company_id = gate_company), false) THEN NULL
    WHEN gate_provider IS NULL THEN 'undeclared'
    WHEN gate_provider IN ('self_hosted', 'none') THEN NULL
    WHEN EXISTS (SELECT 1 FROM ai_consents k WHERE k.company_id = gate_company AND k.status = 'valid_now'
      AND k.valid_until >= gate_today AND k.accepted_providers @> jsonb_build_array(gate_provider)) THEN NULL
    ELSE 'not_covered'
  END
$$;
`
