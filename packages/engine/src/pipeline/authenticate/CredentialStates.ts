import type { SqlClient } from "effect/sql"
import type { CredentialState, FirmCredentialState } from "./Credential.ts"

/**
 * The state a credential was authenticated in, as SQL, and the query a group commit's statement
 * runs to check the credentials it relied on are still in it (GroupCommit.ts, ADRs 0713 and 0903).
 * The strategies live in their areas (administration/ApiKeyCredential.ts, firms/credentials/); the
 * check stays here, where the ledger's batch statement (ledger/posting/JournalBatchStore.ts) reads it
 * without importing an area. It names the administration area's `api_keys` (a debt listed in
 * test/architecture/table-reaches.ts); a firm credential's state is the database function
 * `ledger_firm_credential_state` (migration 0024).
 */

/** The rows an API key (`k`) is decided by: its company (`c`) and its user (`u`) or agent (`a`). */
export const apiKeyJoins = `JOIN companies c ON c.company_id = k.company_id
    LEFT JOIN users u ON u.company_id = k.company_id AND u.id = k.user_id
    LEFT JOIN agents a ON a.company_id = k.company_id AND a.id = k.agent_id`

/** Why a section 7216 requirement keeps an agent's key out (ConsentGate.ts), or null; people's keys are not asked. */
const consentGate = (today: string) =>
  `CASE WHEN k.principal_type = 'agent' THEN ledger_ai_consent_gate(k.company_id, a.ai_provider, ${today}) END`

/**
 * A key's state over those rows: every column authentication and the pipeline decide by, except
 * the last use (written once a minute, and bounding reuse by itself). Times as epoch seconds, so
 * that no session setting changes the text. The 7216 gate is in it (on the database's UTC date),
 * so a consent revoked or a requirement turned on stops a remembered agent key's next batch.
 */
export const apiKeyState = `md5(ROW(k.principal_type, k.user_id, k.agent_id, k.scopes, extract(epoch FROM k.expires_at),
      extract(epoch FROM k.revoked_at), extract(epoch FROM k.overlap_ends_at), k.rate_limit_rpm, c.plan, c.rate_limit_rpm,
      c.kill_switch_suspended, u.name, u.role, a.name, a.status, a.posting_threshold_cents, a.scopes,
      ${consentGate("(now() AT TIME ZONE 'UTC')::date")})::text)`

/**
 * A query counting the keys of `credentials` (a JSON array of `company_id`, `key_id`, `state`)
 * still in the state given: a statement that relied on remembered keys compares it with their
 * number (GroupCommit.ts). Each key is found by its primary key in a scalar subquery, which the
 * planner cannot turn into a join over every company's keys.
 */
const currentApiKeysCount = (sql: SqlClient.SqlClient, credentials: ReadonlyArray<CredentialState>) =>
  sql`SELECT count(*) FROM json_to_recordset(${
    JSON.stringify(credentials.map((credential) => ({
      company_id: credential.companyId,
      key_id: credential.keyId,
      state: credential.state
    })))
  }::json) AS x(company_id uuid, key_id bigint, state text)
    WHERE (SELECT ${sql.literal(apiKeyState)} = x.state FROM api_keys k ${sql.literal(apiKeyJoins)}
      WHERE k.company_id = x.company_id AND k.id = x.key_id)`

/**
 * A query counting the firm credentials of `states` still in the state given, as for company
 * keys: each recomputed by `ledger_firm_credential_state` (migration 0024) from its rows' primary keys.
 */
const currentFirmCredentialsCount = (sql: SqlClient.SqlClient, states: ReadonlyArray<FirmCredentialState>) =>
  sql`SELECT count(*) FROM json_to_recordset(${
    JSON.stringify(states.map((state) => ({
      kind: state.kind,
      firm_id: state.firmId,
      credential_id: state.keyId,
      company_id: state.companyId,
      state: state.state
    })))
  }::json) AS x(kind text, firm_id bigint, credential_id bigint, company_id uuid, state text)
    WHERE ledger_firm_credential_state(x.kind, x.firm_id, x.credential_id, x.company_id) = x.state`

/** Whether a credential's state is a firm credential's. */
export const isFirmState = (state: CredentialState): state is FirmCredentialState =>
  "kind" in state && (state.kind === "firm_key" || state.kind === "firm_session")

/**
 * A query counting the credentials a group commit relied on that are still in the state given
 * (one column, `count`): company API keys and firm credentials acting in a client (ADR 0903).
 */
export const currentCredentialsCount = (sql: SqlClient.SqlClient, credentials: ReadonlyArray<CredentialState>) => {
  const firm = credentials.filter(isFirmState)
  if (firm.length === 0) return currentApiKeysCount(sql, credentials)
  const keys = credentials.filter((credential) => !isFirmState(credential))
  return sql`SELECT (${currentApiKeysCount(sql, keys)}) + (${currentFirmCredentialsCount(sql, firm)}) AS count`
}
