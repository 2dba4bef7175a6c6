import type { ApiKey, Company, Principal, Scope } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { roleScopes } from "../kernel/Actor.ts"
import { capped, type MemberRole, memberRoleScopes } from "../pipeline/authenticate/FirmPrincipal.ts"

/** Database rows to the records of @ledger/api. */

export const company = (row: Record<string, unknown>): Company.Company => ({
  company_id: String(row.company_id),
  name: String(row.name),
  plan: row.plan as Company.Plan,
  rate_limit_rpm: Row.intOrNull(row.rate_limit_rpm),
  fiscal_year_start_month: Row.int(row.fiscal_year_start_month),
  kill_switch: {
    suspended: Boolean(row.kill_switch_suspended),
    reason: row.kill_switch_reason === null ? null : String(row.kill_switch_reason),
    changed_at: Row.isoOrNull(row.kill_switch_changed_at)
  },
  starter_chart: row.starter_chart as Company.StarterChartName,
  periods: Boolean(row.periods),
  created_at: Row.iso(row.created_at)
})

export const user = (row: Record<string, unknown>): Principal.User => ({
  id: Row.int(row.id),
  name: String(row.name),
  role: row.role as Principal.UserRole,
  scopes: [...roleScopes[row.role as Principal.UserRole]],
  ...(row.email === undefined ? {} : { email: (row.email as string | null) ?? null }),
  created_at: Row.iso(row.created_at)
})

/**
 * A row of the people list: a user, or a member of a firm with a live grant, whose scopes are its
 * role's within the grant's and who is the firm's to manage (`firm`, read-only here).
 */
export const person = (row: Record<string, unknown>): Principal.User => {
  if (row.firm_id === null || row.firm_id === undefined) return user(row)
  const role = String(row.role) as MemberRole
  return {
    id: Row.int(row.id),
    name: String(row.name),
    role,
    scopes: [...capped(memberRoleScopes[role] ?? [], Row.textArray<Scope.Scope>(row.grant_scopes))],
    email: (row.email as string | null) ?? null,
    firm: { firm_id: Row.int(row.firm_id), firm_name: String(row.firm_name), grant_id: Row.int(row.grant_id), read_only: true },
    created_at: Row.iso(row.created_at)
  }
}

export const agent = (row: Record<string, unknown>): Principal.Agent => ({
  id: Row.int(row.id),
  name: String(row.name),
  scopes: Row.textArray(row.scopes),
  posting_threshold_cents: Row.int(row.posting_threshold_cents),
  owner_user_id: Row.intOrNull(row.owner_user_id),
  status: row.status as "active" | "revoked",
  revoked_at: Row.isoOrNull(row.revoked_at),
  revoked_reason: row.revoked_reason === null ? null : String(row.revoked_reason),
  ai_provider: row.ai_provider === null ? null : String(row.ai_provider),
  ai_provider_name: row.ai_provider_name === null ? null : String(row.ai_provider_name),
  ai_model_family: row.ai_model_family === null ? null : String(row.ai_model_family),
  created_at: Row.iso(row.created_at)
})

/** A key's status at a moment: what a caller using it then would meet. */
export const keyStatus = (row: Record<string, unknown>, now: string): ApiKey.ApiKey["status"] => {
  const nowMs = Date.parse(now)
  if (row.revoked_at !== null) return "revoked"
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "expired"
  if (row.rotated_to_key_id !== null) {
    return row.overlap_ends_at !== null && Date.parse(Row.iso(row.overlap_ends_at)) > nowMs ? "rotating" : "rotated"
  }
  return "active"
}

export const apiKey = (row: Record<string, unknown>, now: string): ApiKey.ApiKey => ({
  id: Row.int(row.id),
  prefix: String(row.prefix),
  principal_type: row.principal_type as "user" | "agent",
  user_id: Row.intOrNull(row.user_id),
  agent_id: Row.intOrNull(row.agent_id),
  scopes: Row.textArray(row.scopes),
  status: keyStatus(row, now),
  expires_at: Row.iso(row.expires_at),
  last_used_at: Row.isoOrNull(row.last_used_at),
  rate_limit_rpm: Row.intOrNull(row.rate_limit_rpm),
  rotated_from_key_id: Row.intOrNull(row.rotated_from_key_id),
  rotated_to_key_id: Row.intOrNull(row.rotated_to_key_id),
  overlap_ends_at: Row.isoOrNull(row.overlap_ends_at),
  revoked_at: Row.isoOrNull(row.revoked_at),
  revoked_reason: row.revoked_reason === null ? null : String(row.revoked_reason),
  created_at: Row.iso(row.created_at)
})
