import { Schema } from "effect"
import { Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, IdPath, limits } from "./Shared.ts"

/** A custom name (spec 8.2): 3-30 lower-case letters, digits and single hyphens, a letter or digit at each end. */
export const Slug = Schema.String.check(
  Schema.isMinLength(3),
  Schema.isMaxLength(30),
  Schema.isPattern(/^[a-z0-9]+(-[a-z0-9]+)*$/u)
).annotate({ description: "3-30 lower-case letters, digits and single hyphens, starting and ending with a letter or digit." })

/** An allowed sender: an address, or `@domain` for everyone there. */
export const AllowedSender = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^([^\s@<>(),;:"]+)?@[a-z0-9-]+(\.[a-z0-9-]+)+$/iu)
).annotate({ description: "An address (ap@vendor.example) or a whole domain (@vendor.example)." })

export const messageStatuses = ["processed", "review", "quarantined", "rejected", "duplicate", "released", "discarded", "expired"] as const
export const MessageStatus = Schema.Literals(messageStatuses)

export const Inbox = Schema.Struct({
  enabled: Schema.Boolean,
  address: Schema.String,
  custom_address: Schema.NullOr(Schema.String),
  slug: Schema.NullOr(Schema.String),
  previous_slug: Schema.NullOr(Schema.Struct({ slug: Schema.String, address: Schema.String, forwards_until: Timestamp })),
  allowed_senders: Schema.Array(Schema.String),
  listener: Schema.Struct({ configured: Schema.Boolean, domain: Schema.String, port: Schema.NullOr(Schema.Int) }),
  limits: Schema.Struct({
    message_bytes_max: Schema.Int,
    attachments_per_message_max: Schema.Int,
    attachment_bytes_max: Schema.Int,
    allowed_senders_max: Schema.Int
  }),
  refused_after_rotation: Schema.Array(Schema.Struct({ address: Schema.String, from: Schema.String, at: Timestamp })),
  rotated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "ReceiptInbox" })
export type Inbox = typeof Inbox.Type

export const InboxMessage = Schema.Struct({
  id: Id,
  status: MessageStatus,
  from: Schema.String,
  to: Schema.String,
  subject: Schema.NullOr(Schema.String),
  message_id: Schema.NullOr(Schema.String),
  authentication: Schema.Struct({ spf: Schema.String, dkim: Schema.String, dmarc: Schema.String }),
  reasons: Schema.Array(Schema.String),
  attachments: Schema.Array(Schema.Struct({
    file_name: Schema.String,
    media_type: Schema.NullOr(Schema.String),
    size_bytes: Schema.Int,
    receipt_id: Schema.NullOr(Id),
    refused: Schema.NullOr(Schema.String)
  })),
  received_at: Timestamp,
  decided_at: Schema.NullOr(Timestamp),
  decision_reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "InboxMessage" })
export type InboxMessage = typeof InboxMessage.Type

export const getReceiptInbox = Operation.make({
  id: "getReceiptInbox", method: "GET", path: "/v1/receipts/inbox", area,
  summary: "The private receipt address, the custom name, the sender allow-list and the limits.",
  scope: "read", mode: "R", success: Inbox
})

export const updateReceiptInbox = Operation.make({
  id: "updateReceiptInbox", method: "POST", path: "/v1/receipts/inbox", area,
  summary: "Turn the inbox on or off and set who may send receipts; mail from anyone else waits for review.",
  scope: "admin", mode: "-",
  body: Schema.Struct({
    enabled: Schema.optionalKey(Schema.Boolean.annotate({ description: "Accept receipts sent to the inbox address." })),
    allowed_senders: Schema.optionalKey(Schema.Array(AllowedSender).check(Schema.isMaxLength(limits.allowedSendersMax)).annotate({
      description: "Senders whose messages become receipts at once; others wait in review. Replaces the list."
    }))
  }),
  success: Inbox
})

export const rotateReceiptInbox = Operation.make({
  id: "rotateReceiptInbox", method: "POST", path: "/v1/receipts/inbox/rotate", area,
  summary: "Give the inbox a new private address; the old one stops at once, and mail to it is refused and listed.",
  scope: "admin", mode: "K", status: 200,
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: Inbox
})

export const SlugAvailability = Schema.Struct({
  slug: Schema.String,
  available: Schema.Boolean,
  reason: Schema.NullOr(Schema.Literals(["invalid", "reserved", "lookalike", "taken", "yours"]))
})

export const checkReceiptInboxSlug = Operation.make({
  id: "checkReceiptInboxSlug", method: "GET", path: "/v1/receipts/inbox/slug", area,
  summary: "Whether a custom name is free (first come, first served; reserved names and lookalikes refused).",
  scope: "read", mode: "R",
  query: Schema.Struct({
    slug: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60)).annotate({ description: "The inbox address's name part to check." })
  }),
  success: SlugAvailability
})

export const setReceiptInboxSlug = Operation.make({
  id: "setReceiptInboxSlug", method: "POST", path: "/v1/receipts/inbox/slug", area,
  summary: "Take a custom name for the inbox; the previous one forwards 30 days, and the private address keeps working.",
  scope: "admin", mode: "-", body: Schema.Struct({ slug: Slug }), success: Inbox,
  errors: ["slug_unavailable"]
})

export const clearReceiptInboxSlug = Operation.make({
  id: "clearReceiptInboxSlug", method: "POST", path: "/v1/receipts/inbox/slug/clear", area,
  summary: "Give up the custom name; it forwards 30 days, then is released.",
  scope: "admin", mode: "-", body: Schema.Struct({ reason: Schema.optionalKey(Reason) }), success: Inbox
})

export const listReceiptInboxMessages = Operation.make({
  id: "listReceiptInboxMessages", method: "GET", path: "/v1/receipts/inbox/messages", area,
  summary: "Mail the inbox received, newest first.",
  scope: "read", mode: "R",
  query: Schema.Struct({ status: Schema.optionalKey(MessageStatus), ...PageQuery }),
  success: Page(InboxMessage)
})

export const releaseReceiptInboxMessage = Operation.make({
  id: "releaseReceiptInboxMessage", method: "POST", path: "/v1/receipts/inbox/messages/{id}/release", area,
  summary: "Let a message waiting in review through: its files become receipts; optionally allow its sender from now on.",
  scope: "approve", mode: "K", status: 200, peopleOnly: true, pathParams: IdPath,
  body: Schema.Struct({
    allow_sender: Schema.optionalKey(Schema.Boolean.annotate({ description: "Also add the sender to allowed_senders, so its next messages skip review." }))
  }),
  success: InboxMessage, errors: ["message_state", "receipt_storage_not_configured", "receipt_storage_unavailable"]
})

export const discardReceiptInboxMessage = Operation.make({
  id: "discardReceiptInboxMessage", method: "POST", path: "/v1/receipts/inbox/messages/{id}/discard", area,
  summary: "Throw away a message waiting in review; nothing of it is processed.",
  scope: "approve", mode: "K", status: 200, pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }), success: InboxMessage, errors: ["message_state", "receipt_storage_unavailable"]
})

export const operations = [
  getReceiptInbox, updateReceiptInbox, rotateReceiptInbox, checkReceiptInboxSlug, setReceiptInboxSlug,
  clearReceiptInboxSlug, listReceiptInboxMessages, releaseReceiptInboxMessage, discardReceiptInboxMessage
] as const
