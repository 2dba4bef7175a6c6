import { Schema } from "effect"
import { Id, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { EmailAddress } from "../sales/Shared.ts"
import { ProfileInput, TaxProfile } from "./Profiles.ts"
import { area } from "./Shared.ts"

export const W9Request = Schema.Struct({
  id: Id,
  contact_id: Id,
  email: Schema.String,
  status: Schema.Literals(["sent", "completed", "cancelled", "expired"]),
  message: Schema.NullOr(Schema.String),
  expires_at: Timestamp,
  completed_at: Schema.NullOr(Timestamp),
  cancel_reason: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "W9Request" })
export type W9Request = typeof W9Request.Type

export const listW9Requests = Operation.make({
  id: "listW9Requests",
  method: "GET",
  path: "/v1/w9-requests",
  area,
  summary: "W-9 requests, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ contact_id: Schema.optionalKey(Id), ...PageQuery }),
  success: Page(W9Request)
})

export const createW9Request = Operation.make({
  id: "createW9Request",
  method: "POST",
  path: "/v1/w9-requests",
  area,
  summary: "Email a vendor a single-use secure link to fill in their W-9.",
  description: "The link is absolute, on the web app's address (LEDGER_APP_URL): `<app>/w9/<token>`. Without a configured address: 503 `service_unavailable`.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    contact_id: Id,
    email: Schema.optionalKey(EmailAddress).annotate({ description: "Default: the contact's email." }),
    expires_days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({ description: "Days the secure link works (default 30)." })),
    message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000)).annotate({ description: "A note shown to the vendor in the request email." }))
  }),
  success: W9Request,
  errors: ["not_a_vendor", "service_unavailable"]
})

export const cancelW9Request = Operation.make({
  id: "cancelW9Request",
  method: "POST",
  path: "/v1/w9-requests/{id}/cancel",
  area,
  summary: "Cancel a W-9 request; its link stops working.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: Schema.Struct({ id: Id }),
  body: Schema.Struct({ reason: Reason }),
  success: W9Request,
  errors: ["w9_request_closed"]
})

export const W9Token = Schema.String.check(Schema.isPattern(/^w9_[A-Za-z0-9_-]{20,80}$/u))

export const submitW9 = Operation.make({
  id: "submitW9",
  method: "POST",
  path: "/v1/w9/{token}",
  area,
  summary: "The vendor's W-9, sent through the emailed link (the link is the credential; single use). ADR 1310.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 201,
  pathParams: Schema.Struct({ token: W9Token }),
  body: Schema.Struct({ ...ProfileInput.fields, certify: Schema.Literal(true) }),
  success: Schema.Struct({ received: Schema.Boolean, requester: Schema.String, tin_masked: TaxProfile.fields.tin_masked }),
  errors: ["not_found", "w9_request_closed", "tin_sealing_not_configured"]
})
