import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, TaxForms } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Audit from "../pipeline/Audit.ts"
import { InformationReturns } from "../ports/InformationReturns.ts"
import * as FilingContent from "./FilingContent.ts"
import * as FilingPrepare from "./FilingPrepare.ts"
import * as FilingSend from "./FilingSend.ts"
import * as FilingStore from "./FilingStore.ts"
import * as FormsStore from "./FormsStore.ts"
import * as fire from "./fire/Records.ts"

/**
 * Information-return filings (concepts 3.11): proposed with the exact content (TINs masked) and
 * its SHA-256; a person with the filing right approves (sends) quoting that SHA-256, or rejects
 * (sends nothing); a failed send is retried; the IRS's answer is recorded (ack) or asked for
 * (refresh). Nothing leaves before approval. ADR 1305.
 */

const hex = (text: string) => bytesToHex(sha256(new TextEncoder().encode(text)))

const createFiling = Effect.fn("Filings.create")(function*(body: typeof TaxForms.Filings.createFiling.body.Type) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const company = yield* requireCompanyId
  const prepared = yield* FilingPrepare.prepare(company, body)
  const format = body.provider === "gov_csv" ? "csv" as const : "fire" as const
  const masked = FilingContent.render(format, prepared.input, true)
  const full = FilingContent.render(format, prepared.input, false)
  const recordCount = format === "fire" ? fire.split(full).length : prepared.payeeCount
  const summary = {
    year: body.year,
    provider: body.provider,
    kind: prepared.kind,
    file_format: format,
    payee_count: prepared.payeeCount,
    record_count: recordCount,
    total_nec_cents: prepared.totals.nec,
    total_misc_cents: prepared.totals.misc
  }
  const previewSha = hex(masked)
  if (body.dry_run === true) return { status: 200, body: { dry_run: true as const, ...summary, content: masked, sha256: previewSha } }
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_filings ${sql.insert({
    company_id: company,
    ...summary,
    status: "proposed",
    threshold_cents: prepared.threshold,
    contact_ids: JSON.stringify(prepared.contactIds),
    corrections: JSON.stringify(prepared.corrections),
    content_masked: masked,
    preview_sha256: previewSha,
    file_sealed: yield* FormsStore.sealText(full, FilingStore.fileBinding(company, previewSha)),
    file_sha256: hex(full),
    created_by: reference(request.actor),
    created_at: request.now,
    updated_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  const created = FilingStore.filing(rows[0]!)
  return { status: 201, body: created, audit: { targetType: "tax_filing", targetId: created.id, details: { preview_sha256: previewSha } } }
})

const decide = (id: number, expected: (status: string) => boolean, refusal: () => ApiError.LedgerError) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const row = yield* FilingStore.load(company, id, true)
    if (!expected(String(row.status))) return yield* Effect.fail(refusal())
    return { company, row }
  })

const notPending = () => ApiError.fail("filing_not_pending", "Only a proposed filing can be approved or rejected.")
const notSent = () => ApiError.fail("filing_not_submitted", "The filing has not been sent (nor, for gov_csv, approved for upload).")

export const handlers = [
  Handler.make(TaxForms.Filings.listFilings, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* FilingStore.list(company, query.year, query) }
    })),

  Handler.make(TaxForms.Filings.createFiling, ({ body }) => createFiling(body)),

  Handler.make(TaxForms.Filings.getFiling, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* FilingStore.load(company, path.id)
      return { body: { ...FilingStore.filing(row), content_masked: String(row.content_masked) } }
    })),

  Handler.make(TaxForms.Filings.approveFiling, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const { company, row } = yield* decide(path.id, (status) => status === "proposed", notPending)
      if (body.preview_sha256 !== String(row.preview_sha256)) {
        return yield* Effect.fail(ApiError.fail("filing_preview_mismatch", "preview_sha256 is not the SHA-256 of this filing's content: look at it again (GET the filing).", { preview_sha256: String(row.preview_sha256) }))
      }
      const decided = { decided_by: reference(request.actor), decided_at: request.now, note: body.note ?? null }
      // A CSV for the IRS portal goes through no provider: approving it releases the filed copy for
      // a person to upload, and `ack` records the portal's receipt (ADR 2006).
      if (FilingStore.uploadedByHand(row)) {
        const approved = yield* FilingStore.update(company, path.id, { ...decided, status: "approved", updated_at: request.now })
        return { body: FilingStore.filing(approved), audit: { targetType: "tax_filing", targetId: path.id, details: { status: "approved", preview_sha256: body.preview_sha256 } } }
      }
      if (!(yield* InformationReturns).configured) return yield* Effect.fail(FilingSend.notConfigured)
      const sent = yield* FilingSend.send(company, row, decided)
      return { body: FilingStore.filing(sent), audit: { targetType: "tax_filing", targetId: path.id, details: { status: sent.status, preview_sha256: body.preview_sha256 } } }
    })),

  Handler.make(TaxForms.Filings.rejectFiling, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const { company } = yield* decide(path.id, (status) => status === "proposed", notPending)
      const row = yield* FilingStore.update(company, path.id, {
        status: "rejected", decided_by: reference(request.actor), decided_at: request.now, decision_reason: body.reason, updated_at: request.now
      })
      return { body: FilingStore.filing(row), audit: { targetType: "tax_filing", targetId: path.id, reason: body.reason } }
    })),

  Handler.make(TaxForms.Filings.retryFiling, ({ path }) =>
    Effect.gen(function*() {
      const { company, row } = yield* decide(path.id, (status) => status === "failed", () => ApiError.fail("filing_not_retryable", "Only a filing the provider failed to take is retried."))
      if (!(yield* InformationReturns).configured) return yield* Effect.fail(FilingSend.notConfigured)
      const sent = yield* FilingSend.send(company, row, {})
      return { body: FilingStore.filing(sent), audit: { targetType: "tax_filing", targetId: path.id, details: { status: sent.status } } }
    })),

  Handler.make(TaxForms.Filings.ackFiling, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const { company } = yield* decide(path.id, FilingStore.released, notSent)
      const row = yield* FilingStore.update(company, path.id, {
        status: body.status,
        receipt_id: body.receipt_id,
        rejected_records: JSON.stringify(body.rejected_records ?? []),
        ...(body.note === undefined ? {} : { note: body.note }),
        updated_at: request.now
      })
      return { body: FilingStore.filing(row), audit: { targetType: "tax_filing", targetId: path.id, details: { irs_status: body.status, receipt_id: body.receipt_id } } }
    })),

  Handler.make(TaxForms.Filings.refreshFiling, ({ path }) =>
    Effect.gen(function*() {
      const { company, row } = yield* decide(path.id, FilingStore.released, notSent)
      if (FilingStore.uploadedByHand(row)) {
        return yield* Effect.fail(ApiError.fail("filing_not_refreshable", "A gov_csv filing is uploaded by a person to the IRS portal, with no provider to ask: record the portal's answer with ack."))
      }
      const updated = yield* FilingSend.refresh(company, row)
      return { body: FilingStore.filing(updated), audit: { targetType: "tax_filing", targetId: path.id, details: { irs_status: updated.status } } }
    })),

  Handler.make(TaxForms.Filings.getFiledCopy, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* FilingStore.load(company, path.id)
      if (!FilingStore.released(row.status)) return yield* Effect.fail(notSent())
      const content = yield* FormsStore.open(String(row.file_sealed), FilingStore.fileBinding(company, String(row.preview_sha256)))
      const entry = Audit.ofWrite(request, 200, { targetType: "tax_filing", targetId: path.id, details: { downloaded: "filed_copy" } })
      if (entry !== null) yield* Effect.orDie(Audit.record(entry))
      const csv = row.file_format === "csv"
      return {
        body: {
          filing_id: path.id,
          filename: `1099-${String(row.year)}-filing-${path.id}.${csv ? "csv" : "txt"}`,
          content_type: csv ? "text/csv" : "text/plain",
          sha256: String(row.file_sha256),
          content
        }
      }
    }))
]
