import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { ApiError, type Scope } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"
import * as Row from "../../kernel/Row.ts"
import type { Authenticated, CompanyState, FirmCredentialState, Refused } from "../../pipeline/authenticate/Credential.ts"
import { capped, firmActor, type FirmPrincipal, proposesOnly, unreachable } from "../../pipeline/authenticate/FirmPrincipal.ts"

/** A firm principal acting in one client (`X-Ledger-Company`): the client's grant and the agent's assignment, read on every request. */

const companyIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u

/** The kind of a firm credential, as `ledger_firm_credential_state` (migration 0024) takes it. */
const credentialKindOf = (principal: FirmPrincipal): FirmCredentialState["kind"] =>
  principal.credentialKind === "session" ? "firm_session" : "firm_key"

/**
 * The client named by `X-Ledger-Company`, its live grant to the principal's firm, and for a firm
 * agent its assignment there: one statement, read on every request, so a revoked grant or an
 * unassignment takes effect on the very next one (spec 3.9, 5.7).
 */
const readClient = (sql: SqlClient.SqlClient, principal: FirmPrincipal, companyId: string) =>
  sql<Record<string, unknown>>`
    SELECT c.company_id, c.plan, c.rate_limit_rpm, c.kill_switch_suspended, g.id AS grant_id, g.scopes AS grant_scopes,
      s.posting_threshold_cents, s.scopes AS assignment_scopes, (s.company_id IS NOT NULL) AS assigned,
      ledger_firm_credential_state(${credentialKindOf(principal)}, ${principal.firmId}, ${principal.keyId}, c.company_id) AS credential_state
    FROM companies c
    JOIN firm_grants g ON g.company_id = c.company_id AND g.firm_id = ${principal.firmId} AND g.revoked_at IS NULL
    LEFT JOIN firm_agent_assignments s ON s.company_id = c.company_id
      AND s.firm_agent_id = ${principal.type === "firm_agent" ? principal.id : null}
    WHERE c.company_id = ${companyId}`

/**
 * The principal acting in one client: the grant's scopes are the ceiling of every firm principal
 * there, an agent's assignment narrows further and sets its posting threshold, and the firm's
 * kill switch suspends a firm agent's writes as the company's own does (spec 3.1, 5.7). No grant,
 * a revoked one, or an unassigned agent: refused as a stranger is, never audited in that company.
 */
export const inClient = Effect.fn("FirmClient.inClient")(function*(
  sql: SqlClient.SqlClient,
  principal: FirmPrincipal,
  companyHeader: string
): Effect.fn.Return<Authenticated, Refused | SqlError.SqlError> {
  const known: Authenticated = { actor: firmActor(principal), company: null }
  const companyId = companyHeader.trim().toLowerCase()
  if (!companyIdPattern.test(companyId)) return yield* Effect.fail<Refused>({ error: unreachable(), known })
  const row = (yield* readClient(sql, principal, companyId))[0]
  if (row === undefined) return yield* Effect.fail<Refused>({ error: unreachable(), known })
  const isAgent = principal.type === "firm_agent"
  if (isAgent && row.assigned !== true) {
    return yield* Effect.fail<Refused>({
      error: ApiError.fail("forbidden", "This firm agent is not assigned to this company."),
      known
    })
  }
  const grantScopes = Row.textArray<Scope.Scope>(row.grant_scopes)
  const assignmentScopes = row.assignment_scopes === null || row.assignment_scopes === undefined
    ? null
    : Row.textArray<Scope.Scope>(row.assignment_scopes)
  const company: CompanyState = {
    companyId,
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended) || (isAgent && principal.firmKillSwitch),
    killSwitchOfFirm: !row.kill_switch_suspended && isAgent && principal.firmKillSwitch
  }
  const scopes = capped(principal.scopes, grantScopes, isAgent ? assignmentScopes : null)
  const actor: Actor = {
    ...firmActor(principal),
    companyId,
    scopes,
    postingThresholdCents: isAgent ? Row.int(row.posting_threshold_cents) : null,
    // The ceiling decides how a member's writes land, not only which operations it reaches: a
    // member without `approve` here (a bookkeeper, or any member under a grant without it)
    // proposes, and a person who may approve decides (ADR 0903).
    proposesOnly: proposesOnly(principal, scopes)
  }
  const firmCredential: FirmCredentialState = {
    kind: credentialKindOf(principal),
    firmId: principal.firmId,
    companyId,
    keyId: principal.keyId,
    state: String(row.credential_state)
  }
  return { actor, company, firmCredential }
})

