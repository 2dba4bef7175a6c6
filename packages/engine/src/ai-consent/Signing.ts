import { Effect } from "effect"
import { Base64 } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { AiConsent, ApiError } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { requireStepUp } from "../kernel/StepUp.ts"
import * as ConsentPdf from "./ConsentPdf.ts"
import { validUntilAtSigning } from "./ConsentRules.ts"
import * as ConsentStore from "./ConsentStore.ts"

/** Moving a consent (concepts 3.10): sign, upload a paper-signed copy, revoke or cancel; and agents' providers. */

const Ops = AiConsent.Consents
const Req = AiConsent.Requirement

export const wire = (filename: string, bytes: Uint8Array) => ({
  filename,
  content_type: "application/pdf" as const,
  size_bytes: bytes.byteLength,
  content_base64: Base64.encode(bytes)
})

/** A pending consent, locked, with accepted providers among the ones it asked for. */
const pendingFor = Effect.fn("Signing.pendingFor")(function*(company: string, id: number, accepted: ReadonlyArray<string>) {
  const row = yield* ConsentStore.load(company, id, true)
  if (row.status !== "pending") {
    return yield* Effect.fail(ApiError.fail("consent_not_pending", `The consent is ${String(row.status)}; only a pending consent can be signed.`))
  }
  const asked = Row.textArray<string>(row.providers)
  const extra = accepted.filter((provider) => !asked.includes(provider))
  if (extra.length > 0) {
    return yield* Effect.fail(ApiError.fail("validation_failed", "Accepted providers must be among the consent's providers.", { accepted_providers: extra }))
  }
  return row
})

/** Records the signature; the consent it supersedes is superseded at that moment (ADR 1703). */
const recordSignature = Effect.fn("Signing.recordSignature")(function*(
  company: string, row: Record<string, unknown>, fields: {
    readonly signedAt: string
    readonly signedOn: string
    readonly signedBy: string
    readonly method: "typed" | "upload"
    readonly accepted: ReadonlyArray<string>
    readonly pdf: Uint8Array
  }
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const id = Row.int(row.id)
  const validUntil = validUntilAtSigning(row.requested_valid_until === null ? null : Row.date(row.requested_valid_until), fields.signedOn)
  yield* sql`UPDATE ai_consents SET status = 'valid_now', signed_at = ${fields.signedAt}, signed_by = ${fields.signedBy},
    signed_method = ${fields.method}, signer_user_id = ${request.actor.id}, accepted_providers = ${JSON.stringify(fields.accepted)},
    valid_until = ${validUntil}, signed_pdf = ${fields.pdf} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (row.supersedes !== null) {
    yield* sql`UPDATE ai_consents SET status = 'superseded', ended_at = ${request.now}, end_reason = ${`superseded by ${id}`}
      WHERE company_id = ${company} AND id = ${Row.int(row.supersedes)} AND status = 'valid_now'`.pipe(Effect.orDie)
    yield* ConsentStore.log("consent_superseded", { by: id }, { consentId: Row.int(row.supersedes) })
  }
  yield* ConsentStore.log(fields.method === "typed" ? "consent_signed" : "consent_uploaded", {
    signed_by: fields.signedBy,
    accepted_providers: fields.accepted,
    text_sha256: row.text_sha256,
    valid_until: validUntil
  }, { consentId: id })
  return ConsentStore.consentOf(yield* ConsentStore.load(company, id), request.today)
})

export const handlers = [
  Handler.make(Ops.signAiConsent, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (request.actor.credentialKind !== "session" || request.actor.role !== "owner") {
        return yield* Effect.fail(ApiError.fail("consent_not_owner", "Only the owner signs, in their own browser session."))
      }
      yield* requireStepUp
      const row = yield* pendingFor(company, path.id, body.accepted_providers)
      const signature = {
        signedBy: body.typed_name,
        signedAt: request.now,
        textSha256: String(row.text_sha256),
        acceptedProviders: body.accepted_providers,
        validUntil: validUntilAtSigning(row.requested_valid_until === null ? null : Row.date(row.requested_valid_until), request.today)
      }
      const pdf = yield* ConsentPdf.render({ title: `Section 7216 consent ${path.id} (signed)`, text: String(row.text), createdAt: request.now, signature })
      const consent = yield* recordSignature(company, row, {
        signedAt: request.now, signedOn: request.today, signedBy: body.typed_name, method: "typed", accepted: body.accepted_providers, pdf
      })
      return { body: consent, audit: { targetType: "ai_consent", targetId: path.id } }
    })),

  Handler.make(Ops.uploadAiConsent, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (body.attest !== true) return yield* Effect.fail(ApiError.fail("validation_failed", "attest must be true.", { path: ["attest"] }))
      if (body.signed_on > request.today) return yield* Effect.fail(ApiError.fail("validation_failed", "signed_on cannot be in the future.", { path: ["signed_on"] }))
      yield* requireStepUp
      const decoded = Base64.decode(body.pdf_base64)
      if (decoded._tag === "Failure") return yield* Effect.fail(ApiError.fail("consent_invalid_pdf", "pdf_base64 is not base64."))
      const bytes = decoded.success
      if (bytes.byteLength > Ops.signedPdfBytesMax) return yield* Effect.fail(ApiError.fail("consent_invalid_pdf", "The PDF is over 2 MB."))
      if (!(yield* ConsentPdf.isPdf(bytes))) return yield* Effect.fail(ApiError.fail("consent_invalid_pdf", "The file is not a readable PDF."))
      const row = yield* pendingFor(company, path.id, body.accepted_providers)
      const consent = yield* recordSignature(company, row, {
        signedAt: `${body.signed_on}T00:00:00.000Z`, signedOn: body.signed_on, signedBy: body.signed_by, method: "upload", accepted: body.accepted_providers, pdf: bytes
      })
      return { body: consent, audit: { targetType: "ai_consent", targetId: path.id } }
    })),

  Handler.make(Ops.revokeAiConsent, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* ConsentStore.load(company, path.id, true)
      const current = ConsentStore.consentOf(row, request.today).status
      const next = current === "valid_now" ? "revoked" : current === "pending" ? "cancelled" : null
      if (next === null) return yield* Effect.fail(ApiError.fail("conflict", `A ${current} consent cannot be revoked.`))
      yield* sql`UPDATE ai_consents SET status = ${next}, ended_at = ${request.now}, end_reason = ${body.reason ?? null}
        WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
      yield* ConsentStore.log(next === "revoked" ? "consent_revoked" : "consent_cancelled", { reason: body.reason ?? null }, { consentId: path.id })
      return { body: ConsentStore.consentOf(yield* ConsentStore.load(company, path.id), request.today), audit: { targetType: "ai_consent", targetId: path.id } }
    })),

  Handler.make(Req.setAgentAiProvider, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`UPDATE agents SET ai_provider = ${body.ai_provider},
        ai_provider_name = ${body.ai_provider_name ?? null}, ai_model_family = ${body.ai_model_family ?? null}
        WHERE company_id = ${company} AND id = ${path.id} AND status = 'active'
        RETURNING id, name, scopes, ai_provider, ai_provider_name, ai_model_family,
          EXISTS (SELECT 1 FROM ai_connection_agents x WHERE x.company_id = agents.company_id AND x.agent_id = agents.id) AS is_app`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("agent"))
      yield* ConsentStore.log("agent_provider_declared", { ai_provider: body.ai_provider, ai_provider_name: body.ai_provider_name ?? null }, { agentId: path.id })
      const accepted = yield* ConsentStore.acceptedInForce(company, request.today)
      return { body: ConsentStore.agentOf(rows[0], accepted), audit: { targetType: "agent", targetId: path.id } }
    }))
]
