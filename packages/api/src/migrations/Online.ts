import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, IdPath, ImportSummary, Tieout } from "./Desktop.ts"

const down = ["service_unavailable", "online_migration_not_configured"] as const
const upstream = [...down, "bad_gateway"] as const

export const OnlineConnection = Schema.Struct({
  id: Id,
  status: Schema.Literals(["pending", "authorized", "estimated", "extracted", "failed", "revoked", "cut_over"]),
  as_of: DateString,
  include_tax_ids: Schema.Boolean,
  realm_id: Schema.NullOr(Schema.String),
  estimate: Schema.NullOr(Schema.Struct({
    records: Schema.Int,
    calls: Schema.Int,
    budget_remaining: Schema.Int,
    fits: Schema.Boolean,
    by_entity: Schema.Record(Schema.String, Schema.Int)
  })),
  extracted: Schema.NullOr(Schema.Struct({ records: Schema.Int, calls: Schema.Int, tieout_passed: Schema.Boolean })),
  imports: Schema.Array(ImportSummary),
  created_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "OnlineMigrationConnection" })
export type OnlineConnection = typeof OnlineConnection.Type

const op = <const Id extends string>(id: Id, method: "GET" | "POST", path: string, summary: string) => ({ id, method, path, area, summary })

export const createOnline = Operation.make({
  ...op("createOnlineMigrationConnection", "POST", "/v1/migrations/online/connections",
    "A connection to the online edition: the provider's consent URL (read only), shown once, with a single-use state valid 15 minutes."),
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({ as_of: DateString, include_tax_ids: Schema.optionalKey(Schema.Boolean) }),
  success: Schema.Struct({ connection: OnlineConnection, consent_url: Schema.String, expires_at: Timestamp }),
  errors: [...down]
})

export const listOnline = Operation.make({
  ...op("listOnlineMigrationConnections", "GET", "/v1/migrations/online/connections", "Online-edition connections, newest first."),
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(OnlineConnection),
  errors: [...down]
})

export const getOnline = Operation.make({
  ...op("getOnlineMigrationConnection", "GET", "/v1/migrations/online/connections/{id}", "One online-edition connection."),
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: OnlineConnection,
  errors: [...down]
})

const write = <const Id extends string>(id: Id, path: string, summary: string) => ({
  ...op(id, "POST", path, summary),
  scope: "admin" as const,
  mode: "K" as const,
  status: 200,
  peopleOnly: true,
  pathParams: IdPath
})

export const authorizeOnline = Operation.make({
  ...write("authorizeOnlineMigration", "/v1/migrations/online/connections/{id}/authorize", "Finish the consent: exchange the code for read-only access."),
  body: Schema.Struct({
    code: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000)).annotate({ description: "The authorization code the provider's redirect carried." }),
    state: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "The state the redirect carried, as it was." }),
    realm_id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40)).annotate({ description: "The provider's company id (realmId) the redirect carried." })
  }),
  success: OnlineConnection,
  errors: ["migration_consent_invalid", "migration_connection_revoked", ...upstream]
})

export const estimateOnline = Operation.make({
  ...write("estimateOnlineMigration", "/v1/migrations/online/connections/{id}/estimate", "Count records and estimate calls against this month's read budget."),
  body: Schema.Struct({}),
  success: OnlineConnection,
  errors: ["migration_not_authorized", "migration_connection_revoked", ...upstream]
})

export const extractOnline = Operation.make({
  ...write("extractOnlineMigration", "/v1/migrations/online/connections/{id}/extract", "Extract everything in pages of 1,000; refused with budget_exceeded when the last estimate does not fit."),
  body: Schema.Struct({}),
  success: OnlineConnection,
  errors: ["budget_exceeded", "migration_estimate_required", "migration_connection_revoked", ...upstream]
})

export const onlineTieout = Operation.make({
  ...op("getOnlineMigrationTieout", "GET", "/v1/migrations/online/connections/{id}/tieout", "The extraction's tie-out."),
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Tieout,
  errors: ["bundle_not_ready", ...down]
})

export const Disclosure = Schema.Struct({
  connection_id: Id,
  items: Schema.Array(Schema.Struct({ what: Schema.String, count: Schema.Int, handling: Schema.String }))
}).annotate({ identifier: "MigrationDisclosure" })

export const onlineDisclosure = Operation.make({
  ...op("getOnlineMigrationDisclosure", "GET", "/v1/migrations/online/connections/{id}/disclosure", "What could not be exported and how each is handled."),
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Disclosure,
  errors: ["bundle_not_ready", ...down]
})

export const importOnline = Operation.make({
  ...write("importOnlineMigration", "/v1/migrations/online/connections/{id}/import", "Import into empty books; PASS or FAIL; then cut over."),
  status: 201,
  body: Schema.Struct({}),
  success: ImportSummary,
  errors: ["bundle_not_ready", "tieout_failed", "books_not_empty", "migration_connection_revoked", "migration_already_imported", ...down]
})

export const revokeOnline = Operation.make({
  ...write("revokeOnlineMigrationConnection", "/v1/migrations/online/connections/{id}/revoke", "Revoke: final; access revoked at the provider and staged data wiped."),
  body: Schema.Struct({ reason: Reason }),
  success: OnlineConnection,
  errors: ["migration_connection_revoked", ...down]
})

export const usage = Operation.make({
  ...op("getOnlineMigrationUsage", "GET", "/v1/migrations/online/usage", "This month's metered reads against the deployment's budget."),
  scope: "read",
  mode: "R",
  success: Schema.Struct({ month: Schema.String, reads: Schema.Int, budget: Schema.Int, remaining: Schema.Int }),
  errors: [...down]
})

export const operations = [
  createOnline, listOnline, getOnline, authorizeOnline, estimateOnline, extractOnline, onlineTieout, onlineDisclosure, importOnline, revokeOnline, usage
] as const
