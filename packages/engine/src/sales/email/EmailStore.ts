import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Sales } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as Jobs from "../../store/Jobs.ts"
import { jobKind } from "./EmailDelivery.ts"

/** The email outbox's rows as the API shows them, and the queueing every path shares. */
export const toWire = (row: Record<string, unknown>): Sales.Email.Email => ({
  id: Row.int(row.id),
  kind: String(row.kind) as "document" | "estimate" | "reminder",
  status: String(row.status) as Sales.Email.EmailStatus,
  document_id: Row.intOrNull(row.document_id),
  estimate_id: Row.intOrNull(row.estimate_id),
  to: String(row.to_address),
  to_name: (row.to_name as string | null) ?? null,
  cc: Row.json<Array<string>>(row.cc),
  subject: String(row.subject),
  message: (row.message as string | null) ?? null,
  attachment: row.attachment_name === null ? null : { filename: String(row.attachment_name), content_type: "application/pdf" },
  policy: { verdict: String(row.policy_verdict) as "send" | "approve", reasons: Row.json<Array<string>>(row.policy_reasons) },
  requested_by: String(row.requested_by),
  decided_by: (row.decided_by as string | null) ?? null,
  decision_reason: (row.decision_reason as string | null) ?? null,
  attempts: Row.int(row.attempts),
  last_error: (row.last_error as string | null) ?? null,
  provider_message_id: (row.provider_message_id as string | null) ?? null,
  sent_at: Row.isoOrNull(row.sent_at),
  created_at: Row.iso(row.created_at),
  updated_at: Row.iso(row.updated_at)
})

export const loadRow = Effect.fn("EmailStore.loadRow")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM emails WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("email"))
  return rows[0]
})

/** Queues delivery: the job commits with the change that queued the email, or not at all. */
export const enqueueDelivery = (company: string, emailId: number) =>
  Jobs.enqueue({ kind: jobKind, companyId: company, payload: { email_id: emailId }, uniqueKey: `${jobKind}:${emailId}` })
