import { Effect } from "effect"
import { ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { InformationReturns } from "../ports/InformationReturns.ts"
import * as FilingStore from "./FilingStore.ts"
import * as FormsStore from "./FormsStore.ts"

/**
 * Sending a filing through the provider port and reading its answer. A provider that fails leaves
 * the filing `failed` with the error (the change commits, so a person can retry); nothing is
 * sent twice for one approval.
 */

export const notConfigured = ApiError.fail("tax_filing_not_configured", "No information-return filing provider is configured (LEDGER_TAX_FILING_URL).")

export const send = Effect.fn("FilingSend.send")(function*(company: string, row: Record<string, unknown>, decided: Record<string, unknown>) {
  const request = yield* RequestContext
  const filer = yield* InformationReturns
  const content = yield* FormsStore.open(String(row.file_sealed), FilingStore.fileBinding(company, String(row.preview_sha256)))
  const id = Row.int(row.id)
  const answer = yield* filer.submit({
    companyId: company,
    filingId: id,
    provider: String(row.provider),
    year: Row.int(row.year),
    format: row.file_format as "fire" | "csv",
    filename: `1099-${String(row.year)}-filing-${id}.${row.file_format === "csv" ? "csv" : "txt"}`,
    content,
    test: row.provider === "partner_mock"
  }).pipe(Effect.result)
  const attempts = Row.int(row.attempts) + 1
  if (answer._tag === "Failure") {
    return yield* FilingStore.update(company, id, { ...decided, status: "failed", attempts, last_error: answer.failure.message, updated_at: request.now })
  }
  return yield* FilingStore.update(company, id, {
    ...decided,
    status: answer.success.status,
    attempts,
    last_error: null,
    provider_reference: answer.success.reference,
    receipt_id: answer.success.receiptId,
    rejected_records: JSON.stringify(answer.success.rejectedRecords),
    updated_at: request.now
  })
})

export const refresh = Effect.fn("FilingSend.refresh")(function*(company: string, row: Record<string, unknown>) {
  const request = yield* RequestContext
  const filer = yield* InformationReturns
  if (!filer.configured) return yield* Effect.fail(notConfigured)
  if (row.provider_reference === null) return yield* Effect.fail(ApiError.fail("filing_not_submitted", "The provider gave this filing no reference to ask about."))
  const answer = yield* filer.status(String(row.provider_reference)).pipe(
    Effect.mapError((failure) => ApiError.fail("tax_filing_failed", `The filing provider did not answer: ${failure.message}`))
  )
  return yield* FilingStore.update(company, Row.int(row.id), {
    status: answer.status,
    receipt_id: answer.receiptId ?? row.receipt_id ?? null,
    rejected_records: JSON.stringify(answer.rejectedRecords),
    updated_at: request.now
  })
})
