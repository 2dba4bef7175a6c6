import { Schema } from "effect"
import { Id, Page, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { RateLimit } from "../administration/ApiKeys.ts"
import { Empty } from "../Common.ts"
import * as Limits from "./FirmLimits.ts"
import { area, FirmKey, FirmScopes, FirmSession, IdPath, NewFirmKey } from "./Records.ts"

/** Firm keys and firm sessions (spec 4.3, 5.1). */

const KeyDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.memberKeyDaysMax })).annotate({
  description: "Days until the key expires: default 365 for a member, 30 for a firm agent (at most 90)."
})

export const createFirmKey = Operation.make({
  id: "createFirmKey",
  method: "POST",
  path: "/v1/firm/keys",
  area,
  summary: "Issue a firm key for a member or a firm agent. The secret is shown once.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    principal_type: Schema.Literals(["member", "agent"]).annotate({ description: "Whose key: a member's (member_id) or a firm agent's (firm_agent_id)." }),
    member_id: Schema.optionalKey(Id),
    firm_agent_id: Schema.optionalKey(Id),
    scopes: FirmScopes,
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit)
  }),
  success: NewFirmKey
})

export const listFirmKeys = Operation.make({
  id: "listFirmKeys",
  method: "GET",
  path: "/v1/firm/keys",
  area,
  summary: "Firm keys by prefix (admins see all, others their own). Never secrets.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_ended: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(FirmKey)
})

export const rotateFirmKey = Operation.make({
  id: "rotateFirmKey",
  method: "POST",
  path: "/v1/firm/keys/{id}/rotate",
  area,
  summary: "Rotate a firm key (a firm admin or the key's holder): a successor; the old one works until the overlap ends.",
  credential: "firm",
  scope: "read",
  mode: "K",
  pathParams: IdPath,
  body: Schema.Struct({
    overlap_seconds: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 604_800 })).annotate({
      description: "How long the old secret keeps working: default 24 hours, at most 7 days, 0 = at once."
    })),
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit),
    reason: Schema.optionalKey(Reason)
  }),
  success: NewFirmKey
})

export const revokeFirmKey = Operation.make({
  id: "revokeFirmKey",
  method: "POST",
  path: "/v1/firm/keys/{id}/revoke",
  area,
  summary: "Revoke a firm key and end the sessions opened with it. Effective on the next request.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: FirmKey,
  errors: ["conflict"]
})

export const NewFirmSession = Schema.Struct({
  session: FirmSession,
  secret: Schema.String.annotate({ description: "`ldgf_` + 43 characters. Shown once; only a hash is stored." })
}).annotate({ identifier: "NewFirmSession" })

export const openFirmSession = Operation.make({
  id: "openFirmSession",
  method: "POST",
  path: "/v1/firm/sessions",
  area,
  summary: "Open a firm session (a member's key only): 8 hours idle, 7 days at most, never past its key.",
  credential: "firm",
  scope: "read",
  mode: "K",
  body: Empty,
  success: NewFirmSession
})

export const listFirmSessions = Operation.make({
  id: "listFirmSessions",
  method: "GET",
  path: "/v1/firm/sessions",
  area,
  summary: "Your active firm sessions.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(FirmSession)
})

export const revokeFirmSession = Operation.make({
  id: "revokeFirmSession",
  method: "POST",
  path: "/v1/firm/sessions/{id}/revoke",
  area,
  summary: "End a firm session: your own, or anyone's for a firm admin.",
  credential: "firm",
  scope: "read",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: FirmSession,
  errors: ["conflict"]
})

export const operations = [
  createFirmKey,
  listFirmKeys,
  rotateFirmKey,
  revokeFirmKey,
  openFirmSession,
  listFirmSessions,
  revokeFirmSession
] as const
