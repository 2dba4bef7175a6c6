import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { AiConsent, ApiError } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { requireStepUp } from "../kernel/StepUp.ts"
import * as ConsentPdf from "./ConsentPdf.ts"
import { registry, templateText, textHash, validUntilProblem } from "./ConsentRules.ts"
import * as ConsentStore from "./ConsentStore.ts"
import * as Signing from "./Signing.ts"

/** Section 7216 consent (spec 4.4): registry, requirement, requests, documents, the log, agents' providers. */

const Ops = AiConsent.Consents
const Req = AiConsent.Requirement

const companyName = Effect.fn("Consents.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? ""
})

const firmName = Effect.fn("Consents.firmName")(function*(firmId: number | undefined) {
  if (firmId === undefined) return null
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM firms WHERE id = ${firmId}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("firm"))
  return rows[0].name
})

type TemplateFields = Omit<Parameters<typeof templateText>[0], "companyName" | "firmName"> & { readonly firm_id?: number | undefined }

/** The frozen text for a request, after its dates are checked. */
const textFor = Effect.fn("Consents.textFor")(function*(company: string, fields: TemplateFields) {
  const request = yield* RequestContext
  const problem = validUntilProblem(fields.valid_until, request.today)
  if (problem !== null) return yield* Effect.fail(ApiError.fail("validation_failed", problem, { path: ["valid_until"] }))
  if (fields.providers.includes("other") && fields.provider_other_name === undefined) {
    return yield* Effect.fail(ApiError.fail("validation_failed", "Name the other provider (provider_other_name).", { path: ["provider_other_name"] }))
  }
  const text = templateText({ ...fields, companyName: yield* companyName(company), firmName: yield* firmName(fields.firm_id) })
  return { text, text_sha256: textHash(text) }
})

const splitList = (value: string) => value.split(",").map((part) => part.trim()).filter((part) => part !== "")

const checkListed = <T extends string>(values: ReadonlyArray<string>, allowed: ReadonlyArray<T>, name: string) =>
  values.length > 0 && values.every((value) => (allowed as ReadonlyArray<string>).includes(value))
    ? Effect.succeed(values as ReadonlyArray<T>)
    : Effect.fail(ApiError.fail("validation_failed", `${name}: a comma-separated list of ${allowed.join(", ")}.`, { path: [name] }))

const settingsBody = Effect.fn("Consents.settingsBody")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const settings = yield* ConsentStore.settings(company)
  const firms = yield* sql<{ firm_id: unknown }>`SELECT DISTINCT firm_id FROM firm_grants
    WHERE company_id = ${company} AND revoked_at IS NULL ORDER BY firm_id`.pipe(Effect.orDie)
  const consents = yield* ConsentStore.list(company, null, 100)
  return {
    required: settings.required,
    firm_required: settings.firmRequired,
    effective_required: settings.required || settings.firmRequired === true,
    firms: firms.map((row) => ({ firm_id: Row.int(row.firm_id), firm_required: settings.firmRequired })),
    agents: yield* ConsentStore.agents(company, request.today),
    consents: consents.slice(0, 100).map((row) => ConsentStore.consentOf(row, request.today)),
    registry,
    updated_at: settings.updatedAt
  }
})

const pdfOf = Effect.fn("Consents.pdfOf")(function*(row: Record<string, unknown>) {
  const consent = ConsentStore.consentOf(row, (yield* RequestContext).today)
  const bytes = yield* ConsentPdf.render({ title: `Section 7216 consent ${consent.id} v${consent.version}`, text: consent.text, createdAt: consent.created_at, signature: null })
  return Signing.wire(`consent-${consent.id}.pdf`, bytes)
})

export const handlers = [
  Handler.make(Req.listAiProviders, () => Effect.succeed({ body: { providers: registry } })),

  Handler.make(Req.getAi7216, () => Effect.flatMap(requireCompanyId, (company) => Effect.map(settingsBody(company), (body) => ({ body })))),

  Handler.make(Req.setAi7216, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const before = yield* ConsentStore.settings(company)
      const firmRequired = body.firm_required === undefined ? before.firmRequired : body.firm_required
      const turnsOff = (before.required && !body.required) || (before.firmRequired === true && firmRequired !== true)
      if (turnsOff) yield* requireStepUp
      yield* sql`INSERT INTO ai_7216_settings ${sql.insert({ company_id: company, required: body.required, firm_required: firmRequired, updated_at: request.now })}
        ON CONFLICT (company_id) DO UPDATE SET required = EXCLUDED.required, firm_required = EXCLUDED.firm_required,
          updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
      yield* ConsentStore.log("requirement_changed", { required: body.required, firm_required: firmRequired, reason: body.reason ?? null })
      return { body: yield* settingsBody(company), audit: { targetType: "ai_7216", reason: body.reason ?? null } }
    })),

  Handler.make(Ops.listAiConsents, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const limit = Pagination.limitOf(query)
      const rows = yield* ConsentStore.list(company, yield* Pagination.afterId(query), limit)
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), (row) => ConsentStore.consentOf(row, request.today)) }
    })),

  Handler.make(Ops.createAiConsent, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const { text, text_sha256 } = yield* textFor(company, body)
      if (body.supersedes !== undefined) {
        const previous = ConsentStore.consentOf(yield* ConsentStore.load(company, body.supersedes), request.today)
        if (previous.status !== "valid_now") {
          return yield* Effect.fail(ApiError.fail("consent_not_signed", "Only a consent in force can be superseded."))
        }
      }
      const rows = yield* sql<{ id: unknown }>`INSERT INTO ai_consents ${sql.insert({
        company_id: company,
        version: yield* ConsentStore.nextVersion(company),
        status: "pending",
        providers: JSON.stringify(body.providers),
        provider_other_name: body.provider_other_name ?? null,
        provider_other_country: body.provider_other_country ?? null,
        data_categories: JSON.stringify(body.data_categories),
        purposes: JSON.stringify(body.purposes),
        purpose_detail: body.purpose_detail ?? null,
        requested_valid_until: body.valid_until ?? null,
        firm_id: body.firm_id ?? null,
        supersedes: body.supersedes ?? null,
        due_date: body.due_date ?? null,
        text,
        text_sha256,
        created_at: request.now
      })} RETURNING id`.pipe(Effect.orDie)
      const id = Row.int(rows[0]!.id)
      yield* ConsentStore.log("consent_requested", { providers: body.providers, text_sha256, send_request: body.send_request ?? true }, { consentId: id })
      return { body: ConsentStore.consentOf(yield* ConsentStore.load(company, id), request.today), audit: { targetType: "ai_consent", targetId: id } }
    })),

  Handler.make(Ops.getAiConsentTemplate, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const providers = yield* checkListed(splitList(query.providers), AiConsent.Consents.providers, "providers")
      const data_categories = yield* checkListed(splitList(query.data_categories), AiConsent.Consents.dataCategories, "data_categories")
      const purposes = yield* checkListed(splitList(query.purposes), AiConsent.Consents.purposes, "purposes")
      const firm = query.firm_id === undefined ? undefined : Number(query.firm_id)
      if (firm !== undefined && !Number.isSafeInteger(firm)) return yield* Effect.fail(ApiError.fail("validation_failed", "firm_id must be an id."))
      const { text, text_sha256 } = yield* textFor(company, { ...query, providers, data_categories, purposes, firm_id: firm })
      return { body: { text, text_sha256, valid_until: query.valid_until ?? null } }
    })),

  Handler.make(Ops.getAiConsent, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* ConsentStore.load(company, path.id)
      if (query.format === "pdf" || query.format === "base64") return { body: yield* pdfOf(row) }
      return { body: ConsentStore.consentOf(row, (yield* RequestContext).today) }
    })),

  Handler.make(Ops.getAiConsentSignedPdf, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* ConsentStore.load(company, path.id)
      const bytes = yield* ConsentStore.signedPdf(company, path.id)
      if (row.signed_at === null || bytes === null) return yield* Effect.fail(ApiError.fail("consent_not_signed", "The consent has not been signed."))
      return { body: Signing.wire(`consent-${path.id}-signed.pdf`, bytes) }
    })),

  ...Signing.handlers,

  Handler.make(Req.getAi7216Log, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const rows = yield* ConsentStore.logPage(company, yield* Pagination.afterId(query), limit)
      return {
        body: Pagination.page(rows, limit, (row) => Row.int(row.id), (row) => ({
          id: Row.int(row.id),
          at: Row.iso(row.at),
          event: String(row.event),
          consent_id: Row.intOrNull(row.consent_id),
          agent_id: Row.intOrNull(row.agent_id),
          actor: String(row.actor),
          detail: Row.json<unknown>(row.detail)
        }))
      }
    }))
]
