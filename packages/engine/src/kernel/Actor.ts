import type { Principal, Scope } from "@ledger/api"

/**
 * Who is acting. Every request resolves its credential to one actor; every rule asks the actor,
 * never the credential. Firm members, firm agents acting in a client through a grant, web
 * sessions and connected AI apps are kinds of actor too: they carry the company they act in and
 * the scope ceiling that applies there, so the pipeline treats them all alike.
 */
export interface Actor {
  /**
   * `system`: no credential's holder but a verified outside party acting through a connection of
   * the company (the payment processor's signed events, online-payments/Common.ts `asProcessor`).
   */
  readonly type: Principal.PrincipalType | "system"
  /** The user, agent, member or app id; null for the operator. */
  readonly id: number | null
  readonly name: string
  readonly role: string | null
  /** The company acted in; null for the operator and for firm-level requests. */
  readonly companyId: string | null
  /** Effective scopes in that company: the credential's scopes within any grant's ceiling. */
  readonly scopes: ReadonlyArray<Scope.Scope>
  /** People decide proposals and use people-only operations; agents and AI apps do not. */
  readonly isPerson: boolean
  /** The API key or session the request came with. */
  readonly keyId: number | null
  readonly credentialKind: "api_key" | "session" | "operator" | "invitation" | "none"
  /** Agents only: entries at or under this post, larger ones become proposals. */
  readonly postingThresholdCents: number | null
  /** The key's own limit, else null. */
  readonly rateLimitRpm: number | null
  /**
   * A person whose governed writes wait for approval: a firm member whose scopes in the client
   * (capped by the grant) lack `approve` (ledger/PostingPolicy.ts, ADR 0903). Absent means false.
   */
  readonly proposesOnly?: boolean | undefined
  /** Firm principals: the firm they belong to. */
  readonly firmId: number | null
  /**
   * A browser session's last strong authentication (sign-in or step-up, spec 5.5), as an ISO
   * timestamp; absent or null for every other credential. Read it through kernel/StepUp.ts.
   */
  readonly steppedUpAt?: string | null
  /**
   * A connected AI app (ai-apps/AccessToken.ts): its connection, whose daily cap
   * and allowed accounts bound its postings beyond the threshold (a posting limit the ai-apps area
   * contributes, kernel/Registry.ts). Such writes never go in a group commit. Absent otherwise.
   */
  readonly aiConnectionId?: number | null | undefined
}

/** The audit log's name for an actor: `user:12`, `agent:40`, `operator`. */
export const reference = (actor: Actor): string => actor.id === null ? actor.type : `${actor.type}:${actor.id}`

export const isAgent = (actor: Actor): boolean => !actor.isPerson && actor.type !== "operator"

export const operator: Actor = {
  type: "operator",
  id: null,
  name: "operator",
  role: null,
  companyId: null,
  scopes: ["read", "propose", "approve", "admin"],
  isPerson: true,
  keyId: null,
  credentialKind: "operator",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: null
}

/**
 * The most a person's key may hold, by role. The spec leaves this mapping open
 * (docs/decisions/0004-roles-and-scopes.md): owners and CPAs administer; accountants approve;
 * staff prepare work for others to approve.
 */
export const roleScopes: Record<Principal.UserRole, ReadonlyArray<Scope.Scope>> = {
  owner: ["read", "propose", "approve", "admin"],
  cpa: ["read", "propose", "approve", "admin"],
  accountant: ["read", "propose", "approve"],
  staff: ["read", "propose"]
}
