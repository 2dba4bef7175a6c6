import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type AiConsent, ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { covered, needsNoConsent, type Status, statusOn } from "./ConsentRules.ts"

/** The SQL of section 7216 records (tables in migrations/0020_ai_consent.ts). */

export const consentOf = (row: Record<string, unknown>, today: string): AiConsent.Consents.Consent => {
  const validUntil = row.valid_until === null ? (row.requested_valid_until === null ? null : Row.date(row.requested_valid_until)) : Row.date(row.valid_until)
  return {
    id: Row.int(row.id),
    version: Row.int(row.version),
    status: statusOn(row.status as Status, row.valid_until === null ? null : Row.date(row.valid_until), today),
    providers: Row.textArray<string>(row.providers),
    provider_other_name: (row.provider_other_name as string | null) ?? null,
    provider_other_country: (row.provider_other_country as string | null) ?? null,
    data_categories: Row.textArray<string>(row.data_categories),
    purposes: Row.textArray<string>(row.purposes),
    purpose_detail: (row.purpose_detail as string | null) ?? null,
    valid_until: validUntil,
    firm_id: Row.intOrNull(row.firm_id),
    supersedes: Row.intOrNull(row.supersedes),
    due_date: row.due_date === null ? null : Row.date(row.due_date),
    text: String(row.text),
    text_sha256: String(row.text_sha256),
    signed_at: Row.isoOrNull(row.signed_at),
    signed_by: (row.signed_by as string | null) ?? null,
    signed_method: (row.signed_method as "typed" | "upload" | null) ?? null,
    accepted_providers: Row.textArray<string>(row.accepted_providers),
    has_signed_pdf: row.has_signed_pdf === true,
    ended_at: Row.isoOrNull(row.ended_at),
    end_reason: (row.end_reason as string | null) ?? null,
    created_at: Row.iso(row.created_at)
  }
}

const columns = (sql: SqlClient.SqlClient) => sql`company_id, id, version, status, providers, provider_other_name, provider_other_country,
  data_categories, purposes, purpose_detail, requested_valid_until, valid_until, firm_id, supersedes, due_date, text, text_sha256,
  signed_at, signed_by, signed_method, signer_user_id, accepted_providers, signed_pdf IS NOT NULL AS has_signed_pdf, ended_at,
  end_reason, created_at`

export const load = Effect.fn("ConsentStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT ${columns(sql)} FROM ai_consents
    WHERE company_id = ${company} AND id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("consent"))
  return rows[0]
})

export const signedPdf = Effect.fn("ConsentStore.signedPdf")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ signed_pdf: unknown }>`SELECT signed_pdf FROM ai_consents WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  return Row.bytesOrNull(rows[0]?.signed_pdf ?? null)
})

export const list = Effect.fn("ConsentStore.list")(function*(company: string, after: number | null, limit: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT ${columns(sql)} FROM ai_consents WHERE company_id = ${company}
    ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
})

export const nextVersion = Effect.fn("ConsentStore.nextVersion")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ version: unknown }>`SELECT coalesce(max(version), 0) + 1 AS version FROM ai_consents
    WHERE company_id = ${company}`.pipe(Effect.orDie)
  return Row.int(rows[0]!.version)
})

/** Writes a line of the 7216 log. */
export const log = Effect.fn("ConsentStore.log")(function*(
  event: string, detail: Record<string, unknown>, ids: { readonly consentId?: number; readonly agentId?: number } = {}
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (request.companyId === null) return
  yield* sql`INSERT INTO ai_7216_log ${sql.insert({
    company_id: request.companyId,
    at: request.now,
    event,
    consent_id: ids.consentId ?? null,
    agent_id: ids.agentId ?? null,
    actor: request.actor.id === null ? request.actor.type : `${request.actor.type}:${request.actor.id}`,
    detail: JSON.stringify(detail)
  })}`.pipe(Effect.orDie)
})

export const logPage = Effect.fn("ConsentStore.logPage")(function*(company: string, after: number | null, limit: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM ai_7216_log WHERE company_id = ${company}
    ${after === null ? sql`` : sql`AND id > ${after}`} ORDER BY id LIMIT ${limit + 1}`.pipe(Effect.orDie)
})

export const settings = Effect.fn("ConsentStore.settings")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM ai_7216_settings WHERE company_id = ${company}`.pipe(Effect.orDie)
  const row = rows[0]
  return {
    required: row?.required === true,
    firmRequired: row === undefined || row.firm_required === null ? null : row.firm_required === true,
    updatedAt: row === undefined ? null : Row.iso(row.updated_at)
  }
})

/** The accepted providers of every consent signed and in force on `today`. */
export const acceptedInForce = Effect.fn("ConsentStore.acceptedInForce")(function*(company: string, today: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ accepted_providers: unknown }>`SELECT accepted_providers FROM ai_consents
    WHERE company_id = ${company} AND status = 'valid_now' AND valid_until >= ${today}`.pipe(Effect.orDie)
  return rows.map((row) => Row.textArray<string>(row.accepted_providers))
})

/** Every live agent with its provider, whether it is an AI app, and whether a consent covers it. */
export const agents = Effect.fn("ConsentStore.agents")(function*(company: string, today: string) {
  const sql = yield* SqlClient.SqlClient
  const accepted = yield* acceptedInForce(company, today)
  const rows = yield* sql<Record<string, unknown>>`SELECT a.id, a.name, a.scopes, a.ai_provider, a.ai_provider_name, a.ai_model_family,
      EXISTS (SELECT 1 FROM ai_connection_agents x WHERE x.company_id = a.company_id AND x.agent_id = a.id) AS is_app
    FROM agents a WHERE a.company_id = ${company} AND a.status = 'active' ORDER BY a.id`.pipe(Effect.orDie)
  return rows.map((row) => agentOf(row, accepted))
})

export const agentOf = (row: Record<string, unknown>, accepted: ReadonlyArray<ReadonlyArray<string>>): typeof AiConsent.Requirement.Agent7216.Type => {
  const provider = (row.ai_provider as string | null) ?? null
  return {
    agent_id: Row.int(row.id),
    name: String(row.name),
    kind: row.is_app === true ? "ai_app" : "agent",
    ai_provider: provider,
    ai_provider_name: (row.ai_provider_name as string | null) ?? null,
    ai_model_family: (row.ai_model_family as string | null) ?? null,
    can_read: Row.textArray<string>(row.scopes).length > 0,
    covered: covered(provider, accepted) || needsNoConsent(provider)
  }
}
