import { Schema } from "effect"
import { Id, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { EmailAddress, IdPath } from "./Shared.ts"

const area = "4.10 Email"

export const emailStatuses = ["pending_approval", "queued", "sending", "sent", "failed", "suppressed", "rejected", "cancelled"] as const
export const EmailStatus = Schema.Literals(emailStatuses)
export type EmailStatus = typeof EmailStatus.Type

export const Email = Schema.Struct({
  id: Id,
  kind: Schema.Literals(["document", "estimate", "reminder"]),
  status: EmailStatus,
  document_id: Schema.NullOr(Id),
  estimate_id: Schema.NullOr(Id),
  to: Schema.String,
  to_name: Schema.NullOr(Schema.String),
  cc: Schema.Array(Schema.String),
  subject: Schema.String,
  message: Schema.NullOr(Schema.String),
  attachment: Schema.NullOr(Schema.Struct({ filename: Schema.String, content_type: Schema.String })),
  policy: Schema.Struct({
    verdict: Schema.Literals(["send", "approve"]),
    reasons: Schema.Array(Schema.String)
  }),
  requested_by: Schema.String,
  decided_by: Schema.NullOr(Schema.String),
  decision_reason: Schema.NullOr(Schema.String),
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  provider_message_id: Schema.NullOr(Schema.String),
  sent_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "Email" })
export type Email = typeof Email.Type

export const EmailBody = Schema.Struct({
  to: Schema.optionalKey(EmailAddress).annotate({
    description: "Default: the customer's email on file; any other address makes an agent's send wait for approval."
  }),
  to_name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(Limits.nameLengthMax)).annotate({ description: "The recipient's name, as the greeting uses it." })),
  cc: Schema.optionalKey(Schema.Array(EmailAddress).check(Schema.isMaxLength(Limits.emailCcCountMax)).annotate({ description: "More addresses to copy." })),
  message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(Limits.emailMessageLengthMax)).annotate({
    description: "A note shown above the document in the email."
  })),
  dry_run: Schema.optionalKey(Schema.Boolean)
})
export type EmailBody = typeof EmailBody.Type

export const EmailPreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  email: Schema.Unknown,
  status: EmailStatus
}).annotate({ identifier: "EmailPreview" })

export const emailDocument = Operation.make({
  id: "emailDocument",
  method: "POST",
  path: "/v1/documents/{id}/email",
  area,
  summary: "Email a document with its PDF. 200 preview, 201 queued (or waiting in pending_approval).",
  scope: "propose",
  mode: "K",
  pathParams: IdPath,
  body: EmailBody,
  success: Email,
  otherResponses: { 200: EmailPreview }
})

export const emailEstimate = Operation.make({
  id: "emailEstimate",
  method: "POST",
  path: "/v1/estimates/{id}/email",
  area,
  summary: "Email an estimate with its PDF; same governance as documents.",
  scope: "propose",
  mode: "K",
  pathParams: IdPath,
  body: EmailBody,
  success: Email,
  otherResponses: { 200: EmailPreview }
})

export const listOutbox = Operation.make({
  id: "listOutbox",
  method: "GET",
  path: "/v1/email/outbox",
  area,
  summary: "The email outbox, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ status: Schema.optionalKey(EmailStatus), ...PageQuery }),
  success: Page(Email)
})

export const getOutboxEmail = Operation.make({
  id: "getOutboxEmail",
  method: "GET",
  path: "/v1/email/outbox/{id}",
  area,
  summary: "One email.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Email
})

const decision = (id: string, path: string, summary: string, scope: "approve" | "propose" | "admin", reasonRequired: boolean) =>
  Operation.make({
    id,
    method: "POST",
    path,
    area,
    summary,
    scope,
    mode: "K",
    status: 200,
    pathParams: IdPath,
    body: Schema.Struct({ reason: reasonRequired ? Reason : Schema.optionalKey(Reason) }),
    success: Email,
    errors: ["invalid_transition", "self_approval_refused"]
  })

export const approveEmail = decision(
  "approveEmail",
  "/v1/email/outbox/{id}/approve",
  "Approve a waiting email (never your own): it is queued.",
  "approve",
  false
)
export const rejectEmail = decision("rejectEmail", "/v1/email/outbox/{id}/reject", "Reject a waiting email.", "approve", true)
export const cancelEmail = decision(
  "cancelEmail",
  "/v1/email/outbox/{id}/cancel",
  "Cancel an email not yet sent (its requester or an admin).",
  "propose",
  false
)
export const retryEmail = decision("retryEmail", "/v1/email/outbox/{id}/retry", "Queue a failed email again.", "admin", false)

export const EmailSettings = Schema.Struct({
  reply_to: Schema.NullOr(Schema.String),
  display_name: Schema.NullOr(Schema.String),
  security_notices_to: Schema.NullOr(Schema.String),
  reminders_enabled: Schema.Boolean,
  reminder_days: Schema.Array(Schema.Int),
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "EmailSettings" })

export const getEmailSettings = Operation.make({
  id: "getEmailSettings",
  method: "GET",
  path: "/v1/email/settings",
  area,
  summary: "Email settings: sender name, reply-to, payment reminders.",
  scope: "read",
  mode: "R",
  success: EmailSettings
})

export const setEmailSettings = Operation.make({
  id: "setEmailSettings",
  method: "POST",
  path: "/v1/email/settings",
  area,
  summary: "Change email settings. Payment reminders are off by default; reminder_days are relative to the due date.",
  scope: "admin",
  mode: "-",
  body: Schema.Struct({
    reply_to: Schema.optionalKey(Schema.NullOr(EmailAddress)),
    display_name: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax))).annotate({
      description: "The sender name customers see; null for the company's name."
    })),
    security_notices_to: Schema.optionalKey(Schema.NullOr(EmailAddress)),
    reminders_enabled: Schema.optionalKey(Schema.Boolean.annotate({ description: "Email payment reminders for open invoices (off by default)." })),
    reminder_days: Schema.optionalKey(Schema.Array(
      Schema.Int.check(Schema.isBetween({ minimum: -Limits.reminderDaysOffsetMax, maximum: Limits.reminderDaysOffsetMax }))
    ).check(Schema.isMaxLength(Limits.reminderDaysCountMax)).annotate({
      description: "When reminders go, in days relative to the due date (-3 = three days before)."
    }))
  }),
  success: EmailSettings
})

export const Suppression = Schema.Struct({
  address: Schema.String,
  reason: Schema.String,
  email_id: Schema.NullOr(Id),
  created_at: Timestamp
})

export const listSuppressions = Operation.make({
  id: "listSuppressions",
  method: "GET",
  path: "/v1/email/suppressions",
  area,
  summary: "Addresses mail is no longer sent to (hard bounces, complaints).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Suppression)
})

export const operations = [
  emailDocument,
  emailEstimate,
  listOutbox,
  getOutboxEmail,
  approveEmail,
  rejectEmail,
  cancelEmail,
  retryEmail,
  getEmailSettings,
  setEmailSettings,
  listSuppressions
] as const
