import type { Scope } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { memberRoleScopes, type MemberRole } from "../pipeline/authenticate/FirmPrincipal.ts"

/** Rows of the firms area's tables as the API returns them. */

const textOrNull = (value: unknown): string | null => value === null || value === undefined ? null : String(value)

export const firm = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  name: String(row.name),
  rate_limit_rpm: Row.intOrNull(row.rate_limit_rpm),
  kill_switch_suspended: Boolean(row.kill_switch_suspended),
  kill_switch_reason: textOrNull(row.kill_switch_reason),
  created_at: Row.iso(row.created_at)
})

export const member = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  firm_id: Row.int(row.firm_id),
  name: String(row.name),
  email: textOrNull(row.email),
  role: row.role as MemberRole,
  scopes: [...memberRoleScopes[row.role as MemberRole]],
  status: row.status as "active" | "removed",
  removed_at: Row.isoOrNull(row.removed_at),
  removed_reason: textOrNull(row.removed_reason),
  created_at: Row.iso(row.created_at)
})

export const keyStatus = (row: Record<string, unknown>, now: string) => {
  const nowMs = Date.parse(now)
  if (row.revoked_at !== null) return "revoked" as const
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "expired" as const
  if (row.overlap_ends_at !== null) return Date.parse(Row.iso(row.overlap_ends_at)) <= nowMs ? "rotated" as const : "rotating" as const
  return "active" as const
}

export const key = (row: Record<string, unknown>, now: string) => ({
  id: Row.int(row.id),
  firm_id: Row.int(row.firm_id),
  prefix: String(row.prefix),
  principal_type: row.principal_type as "member" | "agent",
  member_id: Row.intOrNull(row.member_id),
  firm_agent_id: Row.intOrNull(row.firm_agent_id),
  scopes: Row.textArray<Scope.Scope>(row.scopes),
  status: keyStatus(row, now),
  expires_at: Row.iso(row.expires_at),
  last_used_at: Row.isoOrNull(row.last_used_at),
  rate_limit_rpm: Row.intOrNull(row.rate_limit_rpm),
  rotated_from_key_id: Row.intOrNull(row.rotated_from_key_id),
  rotated_to_key_id: Row.intOrNull(row.rotated_to_key_id),
  overlap_ends_at: Row.isoOrNull(row.overlap_ends_at),
  revoked_at: Row.isoOrNull(row.revoked_at),
  revoked_reason: textOrNull(row.revoked_reason),
  created_at: Row.iso(row.created_at)
})

export const assignment = (row: Record<string, unknown>) => ({
  company_id: String(row.company_id),
  company_name: String(row.company_name),
  posting_threshold_cents: Row.int(row.posting_threshold_cents),
  scopes: row.scopes === null ? null : Row.textArray<Scope.Scope>(row.scopes),
  updated_at: Row.iso(row.updated_at)
})

export const agent = (row: Record<string, unknown>, assignments: ReadonlyArray<Record<string, unknown>>) => ({
  id: Row.int(row.id),
  firm_id: Row.int(row.firm_id),
  name: String(row.name),
  scopes: Row.textArray<Scope.Scope>(row.scopes),
  status: row.status as "active" | "revoked",
  revoked_at: Row.isoOrNull(row.revoked_at),
  revoked_reason: textOrNull(row.revoked_reason),
  assignments: assignments.map(assignment),
  created_at: Row.iso(row.created_at)
})

export const grant = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  company_id: String(row.company_id),
  firm_id: Row.int(row.firm_id),
  firm_name: String(row.firm_name),
  scopes: Row.textArray<Scope.Scope>(row.scopes),
  billing: row.billing as "firm" | "client",
  reason: textOrNull(row.reason),
  status: row.revoked_at === null ? "live" as const : "revoked" as const,
  granted_by: String(row.granted_by),
  created_at: Row.iso(row.created_at),
  revoked_at: Row.isoOrNull(row.revoked_at),
  revoked_reason: textOrNull(row.revoked_reason),
  revoked_by: textOrNull(row.revoked_by)
})

export const invitation = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  company_id: String(row.company_id),
  status: row.status as "pending" | "claimed" | "replaced" | "void",
  expires_at: Row.iso(row.expires_at),
  created_at: Row.iso(row.created_at)
})

export const session = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  kind: "firm" as const,
  member_id: Row.int(row.member_id),
  key_id: Row.intOrNull(row.key_id),
  scopes: Row.textArray<Scope.Scope>(row.scopes),
  via: row.via as "key" | "sign_in",
  last_seen_at: Row.iso(row.last_seen_at),
  idle_expires_at: Row.iso(row.idle_expires_at),
  expires_at: Row.iso(row.expires_at),
  revoked_at: Row.isoOrNull(row.revoked_at),
  created_at: Row.iso(row.created_at)
})
