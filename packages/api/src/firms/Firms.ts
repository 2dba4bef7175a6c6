import { Schema } from "effect"
import { Name, Page, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Scope } from "../Scope.ts"
import { area, Email, Firm, FirmMember, IdPath, MemberRole, NewFirmKey } from "./Records.ts"

/** A firm, its people and its kill switch (spec 4.3). */

export const NewFirm = Schema.Struct({
  firm: Firm,
  member: FirmMember,
  key: NewFirmKey.fields.key,
  secret: NewFirmKey.fields.secret
}).annotate({ identifier: "NewFirm" })

export const createFirm = Operation.make({
  id: "createFirm",
  method: "POST",
  path: "/v1/firms",
  area,
  summary: "Create an accounting firm with its first admin member and that member's key (secret shown once).",
  credential: "operator",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, admin_name: Name, admin_email: Schema.optionalKey(Email) }),
  success: NewFirm
})

export const FirmIdentity = Schema.Struct({
  firm: Firm,
  principal: Schema.Struct({
    type: Schema.Literals(["firm_member", "firm_agent"]),
    id: Schema.Int,
    name: Schema.String,
    role: Schema.NullOr(Schema.String),
    scopes: Schema.Array(Scope),
    credential: Schema.Literals(["api_key", "session"]),
    key_id: Schema.NullOr(Schema.Int)
  })
}).annotate({ identifier: "FirmIdentity" })

export const getFirm = Operation.make({
  id: "getFirm",
  method: "GET",
  path: "/v1/firm",
  area,
  summary: "The caller's firm and who the caller is in it.",
  credential: "firm",
  scope: "read",
  mode: "R",
  success: FirmIdentity
})

export const createFirmMember = Operation.make({
  id: "createFirmMember",
  method: "POST",
  path: "/v1/firm/members",
  area,
  summary: "Add a member (admin, cpa or bookkeeper). No seat fees; the member appears in every granting client.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, role: MemberRole, email: Schema.optionalKey(Email) }),
  success: FirmMember
})

export const listFirmMembers = Operation.make({
  id: "listFirmMembers",
  method: "GET",
  path: "/v1/firm/members",
  area,
  summary: "The firm's members; removed ones with include_removed.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_removed: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(FirmMember)
})

export const removeFirmMember = Operation.make({
  id: "removeFirmMember",
  method: "POST",
  path: "/v1/firm/members/{id}/remove",
  area,
  summary: "Remove a member: final; their keys and sessions end on the next request.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: FirmMember,
  errors: ["conflict", "last_firm_admin"]
})

export const setFirmKillSwitch = Operation.make({
  id: "setFirmKillSwitch",
  method: "POST",
  path: "/v1/firm/kill-switch",
  area,
  summary: "Suspend or resume every firm agent's writes in every client.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  body: Schema.Struct({
    suspended: Schema.Boolean.annotate({ description: "True suspends the firm's agents' writes in every client; false resumes them." }),
    reason: Reason
  }),
  success: Firm
})

export const operations = [createFirm, getFirm, createFirmMember, listFirmMembers, removeFirmMember, setFirmKillSwitch] as const
