import { Effect } from "effect"
import { Base64 } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { ApiError, Profile, Scope } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as LogoRules from "./LogoRules.ts"
import * as PreviewPdf from "./PreviewPdf.ts"
import * as ProfileRules from "./ProfileRules.ts"
import * as ProfileStore from "./ProfileStore.ts"

const Ops = Profile.Records
const limits = Ops.limits

const isAdmin = Effect.gen(function*() {
  const request = yield* RequestContext
  return Scope.satisfies(request.actor.scopes, "admin")
})

type Body = typeof Ops.updateCompanyProfile.body.Type

/** The columns a change writes, checked; every problem at once as 422 issues. */
export const changes = (body: Body): { readonly values: Record<string, unknown>; readonly problems: ReadonlyArray<ProfileRules.Problem> } => {
  const values: Record<string, unknown> = {}
  const problems: Array<ProfileRules.Problem> = []
  const checked = (field: string, raw: string | null | undefined, rule?: (value: string) => string | ProfileRules.Problem) => {
    const value = ProfileRules.cleared(raw)
    if (value === undefined) return
    const result = value === null || rule === undefined ? value : rule(value)
    if (ProfileRules.isProblem(result)) problems.push(result)
    else values[field] = result
  }
  for (const field of ["legal_name", "dba", "address_line1", "address_line2", "city", "region", "postal_code", "phone", "sales_tax_id"] as const) {
    checked(field, body[field])
  }
  checked("website", body.website, ProfileRules.website)
  checked("email", body.email, ProfileRules.email)
  checked("ein", body.ein, ProfileRules.ein)
  checked("brand_color", body.brand_color, ProfileRules.brandColor)
  const countryValue = ProfileRules.cleared(body.country)
  if (countryValue !== undefined) checked("country", countryValue ?? "US", ProfileRules.country)
  for (const field of ["payment_instructions", "footer_text"] as const) {
    checked(field, body[field], (value) =>
      ProfileRules.lineCount(value) > limits.textLinesMax ? { field, message: `At most ${limits.textLinesMax} lines.` } : value)
  }
  if (body.show_ein !== undefined) values.show_ein = body.show_ein
  return { values, problems }
}

const companyName = Effect.fn("Profile.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? ""
})

export const handlers = [
  Handler.make(Ops.getCompanyProfile, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: ProfileStore.present(yield* ProfileStore.load(company), yield* isAdmin) }
    })),

  Handler.make(Ops.updateCompanyProfile, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const { values, problems } = changes(body)
      if (problems.length > 0) {
        return yield* Effect.fail(ApiError.validationFailed(problems[0]!.message, problems.map((p) => ({ path: ["body", p.field], message: p.message }))))
      }
      if (body.dry_run === true) {
        const current = yield* ProfileStore.load(company)
        return { body: ProfileStore.present({ ...current, ...values, updated_at: current?.updated_at ?? request.now }, true) }
      }
      const row = yield* ProfileStore.upsert(company, values, request.now)
      return { body: ProfileStore.present(row, true), audit: { targetType: "company_profile", details: { changed: Object.keys(values) } } }
    })),

  Handler.make(Ops.uploadCompanyLogo, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const decoded = Base64.decode(body.content_base64.replace(/\s+/gu, ""))
      if (decoded._tag === "Failure") return yield* Effect.fail(ApiError.validationFailed("The content is not valid base64.", [{ path: ["body", "content_base64"], message: "Not base64" }]))
      const checked = LogoRules.check(decoded.success)
      if (checked._tag === "Refused") {
        const type = checked.unsupported === true ? "unsupported_media_type" : checked.tooLarge === true ? "payload_too_large" : "logo_refused"
        return yield* Effect.fail(ApiError.fail(type, checked.reason))
      }
      const mediaType = checked._tag === "Png" ? "image/png" as const : "image/svg+xml" as const
      const logo = {
        media_type: mediaType, size_bytes: checked.bytes.byteLength, width: checked.width, height: checked.height,
        file_name: body.file_name ?? null, updated_at: request.now
      }
      const cleaned = checked._tag === "Svg" ? [...checked.cleaned] : []
      if (body.dry_run === true) return { status: 200, body: { dry_run: true, logo, cleaned } }
      yield* ProfileStore.upsert(company, {
        logo: checked.bytes, logo_media_type: mediaType, logo_file_name: body.file_name ?? null,
        logo_width: checked.width, logo_height: checked.height, logo_updated_at: request.now
      }, request.now)
      return { status: 201, body: { dry_run: false, logo, cleaned }, audit: { targetType: "company_logo", details: { media_type: mediaType, cleaned } } }
    })),

  Handler.make(Ops.getCompanyLogo, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* ProfileStore.load(company)
      const bytes = Row.bytesOrNull(row?.logo)
      if (row === null || bytes === null) return yield* Effect.fail(ApiError.notFound("logo"))
      const mediaType = String(row.logo_media_type)
      return {
        body: {
          file_name: (row.logo_file_name as string | null) ?? (mediaType === "image/png" ? "logo.png" : "logo.svg"),
          media_type: mediaType, size_bytes: bytes.byteLength, content_base64: Base64.encode(bytes)
        }
      }
    })),

  Handler.make(Ops.removeCompanyLogo, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const row = yield* ProfileStore.upsert(company, {
        logo: null, logo_media_type: null, logo_file_name: null, logo_width: null, logo_height: null, logo_updated_at: null
      }, request.now)
      return { body: ProfileStore.present(row, yield* isAdmin), audit: { targetType: "company_logo" } }
    })),

  Handler.make(Ops.previewCompanyProfile, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const row = yield* ProfileStore.load(company)
      const kind = query.kind ?? "invoice"
      const profile = ProfileStore.present(row, yield* isAdmin)
      const logo = row?.logo_media_type === "image/png" ? Row.bytesOrNull(row.logo) : null
      const bytes = yield* PreviewPdf.render({ kind, profile, companyName: yield* companyName(company), logoPng: logo, at: request.now })
      return {
        body: { kind, filename: `${kind}-preview.pdf`, content_type: "application/pdf" as const, size_bytes: bytes.byteLength, content_base64: Base64.encode(bytes) }
      }
    }))
]
