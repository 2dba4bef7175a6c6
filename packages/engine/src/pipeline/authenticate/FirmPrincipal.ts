import { Effect, Option } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { ApiError, Scope } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"
import * as Row from "../../kernel/Row.ts"
import type { Authenticated, CompanyState, FirmCredentialState, Refused } from "./Credential.ts"

/**
 * A firm principal (a member or a firm agent, by firm key or firm session) as authentication
 * found it, and the rules that make it an actor: at the firm level, or inside one client through
 * the client's grant (spec 5.2, 5.4). Shared by FirmKey.ts and FirmSession.ts; the firms area
 * reads the scope rules from here too (the pipeline imports no area).
 */

export type MemberRole = "admin" | "cpa" | "bookkeeper"

/** Spec 5.2: `admin` and `cpa` hold every scope in clients; `bookkeeper` holds read and propose. */
export const memberRoleScopes: Record<MemberRole, ReadonlyArray<Scope.Scope>> = {
  admin: ["read", "propose", "approve", "admin"],
  cpa: ["read", "propose", "approve", "admin"],
  bookkeeper: ["read", "propose"]
}

/** Every scope a set implies: a holder of `approve` may do what `read` and `propose` allow. */
export const closure = (held: ReadonlyArray<Scope.Scope>): ReadonlyArray<Scope.Scope> => {
  const top = Scope.highest(held)
  return top === undefined ? [] : Scope.scopes.filter((scope) => Scope.rank(scope) <= Scope.rank(top))
}

/**
 * The scopes left under every ceiling: each set is read with what it implies, and only what all of
 * them allow is kept. A ceiling of `null` (an assignment without scopes of its own) imposes nothing.
 */
export const capped = (...ceilings: ReadonlyArray<ReadonlyArray<Scope.Scope> | null>): ReadonlyArray<Scope.Scope> => {
  const given = ceilings.filter((ceiling): ceiling is ReadonlyArray<Scope.Scope> => ceiling !== null)
  if (given.length === 0) return []
  return given.map(closure).reduce((kept, next) => kept.filter((scope) => next.includes(scope)))
}

/** A firm member whose scopes in a client lack `approve`: its governed writes wait for approval there (ADR 0903). */
export const proposesOnly = (principal: Pick<FirmPrincipal, "type">, scopes: ReadonlyArray<Scope.Scope>): boolean =>
  principal.type === "firm_member" && !scopes.includes("approve")

/** Who a firm credential names, before any client. */
export interface FirmPrincipal {
  readonly firmId: number
  readonly type: "firm_member" | "firm_agent"
  readonly id: number
  readonly name: string
  readonly role: MemberRole | null
  /** The credential's scopes within the holder's own ceiling (role or firm agent scopes). */
  readonly scopes: ReadonlyArray<Scope.Scope>
  readonly keyId: number
  readonly credentialKind: "api_key" | "session"
  /** Every firm credential is limited: its key's own limit, else its firm's, else the firms' default. */
  readonly rateLimitRpm: number
  readonly firmKillSwitch: boolean
  /**
   * A firm session signed in on the web: its last strong authentication (sign-in or step-up,
   * spec 5.5). Null for a session opened with a firm key, absent for a key.
   */
  readonly steppedUpAt?: string | null
}

/** A firm credential found and let through, and the write of its last use when one is due. */
export interface Located {
  readonly principal: FirmPrincipal
  readonly touch: Effect.Effect<void, SqlError.SqlError>
}

/** The firm-level actor: no company (the firm's own operations take no company header). */
export const firmActor = (principal: FirmPrincipal): Actor => ({
  type: principal.type,
  id: principal.id,
  name: principal.name,
  role: principal.role,
  companyId: null,
  scopes: principal.scopes,
  isPerson: principal.type === "firm_member",
  keyId: principal.keyId,
  credentialKind: principal.credentialKind,
  postingThresholdCents: null,
  rateLimitRpm: principal.rateLimitRpm,
  firmId: principal.firmId,
  ...(principal.steppedUpAt === undefined ? {} : { steppedUpAt: principal.steppedUpAt })
})

const companyIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u

/** What a stranger is told about a company it cannot reach: the same whether it exists or not. */
export const unreachable = (): ApiError.LedgerError =>
  ApiError.fail("not_found", "No company with this id is reachable with this credential.")

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
export const inClient = Effect.fn("FirmPrincipal.inClient")(function*(
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

/** A firm credential's statement found nothing: the token is not a firm credential. */
export const notFirm = Option.none<Authenticated>()
