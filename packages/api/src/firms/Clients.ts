import { Schema } from "effect"
import { DateString, Empty, Name, PageQuery } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Company } from "../administration/Companies.ts"
import { User } from "../administration/People.ts"
import { area, CompanyPath, Email, Grant, NewInvitation } from "./Records.ts"

/** The firm's clients: the console, creating a client, and its owner's invitation (spec 4.3). */

export const ClientStatus = Schema.Struct({
  company_id: Schema.String,
  name: Schema.String,
  grant_id: Schema.Int,
  scopes: Schema.Array(Schema.String),
  billing: Schema.String,
  bank: Schema.Struct({
    accounts: Schema.Int,
    unmatched_lines: Schema.Int,
    oldest_unmatched_date: Schema.NullOr(Schema.String),
    last_reconciled_date: Schema.NullOr(Schema.String)
  }),
  proposals: Schema.Struct({ pending: Schema.Int, pending_cents: Schema.Int, oldest_created_at: Schema.NullOr(Schema.String) }),
  periods: Schema.Struct({
    locked_through: Schema.NullOr(Schema.String).annotate({ description: "End of the latest soft- or hard-locked period." }),
    open_before_as_of: Schema.Int
  }),
  overdue_ar: Schema.Struct({ invoices: Schema.Int, cents: Schema.Int }),
  last_activity_at: Schema.NullOr(Schema.String),
  migration: Schema.Struct({ state: Schema.Literals(["none", "in_progress", "done"]) }),
  kill_switch_suspended: Schema.Boolean
}).annotate({ identifier: "FirmClientStatus" })

export const listFirmClients = Operation.make({
  id: "listFirmClients",
  method: "GET",
  path: "/v1/firm/clients",
  area,
  summary: "The accountant's console: per client bank status, proposal queue, period locks, overdue AR, last activity, migration.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ as_of: Schema.optionalKey(DateString), ...PageQuery }),
  success: Schema.Struct({
    as_of: Schema.String,
    data: Schema.Array(ClientStatus),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String)
  }).annotate({ identifier: "FirmConsole" })
})

export const NewClient = Schema.Struct({
  company: Company,
  owner: User,
  grant: Grant,
  invitation: NewInvitation.fields.invitation,
  secret: NewInvitation.fields.secret
}).annotate({ identifier: "NewFirmClient" })

export const createFirmClient = Operation.make({
  id: "createFirmClient",
  method: "POST",
  path: "/v1/firm/clients",
  area,
  summary: "Create a client company: its owner, a firm-billed grant with all scopes, and a single-use owner invitation.",
  description: "No company key is returned to the firm: the owner claims their key with the invitation " +
    "(POST /v1/owner-invites/claim, the invitation as Bearer), valid 14 days.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    owner_name: Name,
    owner_email: Schema.optionalKey(Email),
    starter_chart: Schema.optionalKey(Schema.Literals(["general", "services", "retail", "empty"]).annotate({
      description: "The chart of accounts to start from: general (default), services, retail, or empty."
    })),
    periods: Schema.optionalKey(Schema.Boolean.annotate({ description: "Create this fiscal year's and the next one's monthly periods (default true)." }))
  }),
  success: NewClient
})

export const reissueOwnerInvite = Operation.make({
  id: "reissueOwnerInvite",
  method: "POST",
  path: "/v1/firm/clients/{id}/owner-invite",
  area,
  summary: "A new owner invitation replacing an unclaimed one; refused once claimed or once the client revoked access.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  pathParams: CompanyPath,
  body: Empty,
  success: NewInvitation,
  errors: ["invitation_claimed", "firm_access_revoked"]
})

export const operations = [listFirmClients, createFirmClient, reissueOwnerInvite] as const
