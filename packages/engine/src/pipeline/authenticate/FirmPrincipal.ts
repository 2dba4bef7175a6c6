import type { Effect } from "effect"
import type { SqlError } from "effect/sql"
import { ApiError, Scope } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"

/**
 * A firm principal (a member or a firm agent, by firm key or firm session) as authentication
 * found it, and the rules that make it an actor: at the firm level, or inside one client through
 * the client's grant (spec 5.2, 5.4). The rules, no table: the firms area's strategies
 * (firms/credentials/) make actors with them, and administration, auth and AI apps read the scope
 * rules from here too (no area imports another's files).
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

/** What a stranger is told about a company it cannot reach: the same whether it exists or not. */
export const unreachable = (): ApiError.LedgerError =>
  ApiError.fail("not_found", "No company with this id is reachable with this credential.")
