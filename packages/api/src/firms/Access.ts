import { Schema } from "effect"
import { Id, Page, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Billing, FirmScopes, Grant, IdPath } from "./Records.ts"

/** A client's grants of access to firms (spec 4.3 "firm access", 5.4): company operations. */

export const grantFirmAccess = Operation.make({
  id: "grantFirmAccess",
  method: "POST",
  path: "/v1/firm-access",
  area,
  summary: "Grant a firm access to this company. Its scopes are the ceiling for every firm member and agent here.",
  description: "Only the company's own people (never a firm principal, an agent or an AI app). One live grant per firm.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({ firm_id: Id, scopes: FirmScopes, billing: Billing, reason: Schema.optionalKey(Reason) }),
  success: Grant,
  errors: ["conflict"]
})

export const listFirmAccess = Operation.make({
  id: "listFirmAccess",
  method: "GET",
  path: "/v1/firm-access",
  area,
  summary: "Firms with access to this company, and revoked grants. A firm principal sees its own firm's only.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Grant)
})

export const revokeFirmAccess = Operation.make({
  id: "revokeFirmAccess",
  method: "POST",
  path: "/v1/firm-access/{id}/revoke",
  area,
  summary: "Revoke a firm's access: final, effective on the firm's next request; its agents are unassigned.",
  description: "The company's admins, or the firm itself giving up its own access. Pending owner invitations of the " +
    "firm for this company become void.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Grant,
  errors: ["conflict"]
})

export const updateFirmAccess = Operation.make({
  id: "updateFirmAccess",
  method: "POST",
  path: "/v1/firm-access/{id}/update",
  area,
  summary: "Change who is billed (recorded only). Scopes never change: revoke and grant again.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ billing: Billing }),
  success: Grant,
  errors: ["conflict"]
})

export const operations = [grantFirmAccess, listFirmAccess, revokeFirmAccess, updateFirmAccess] as const
