import { Schema } from "effect"
import { Cents, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, IdPath, SyncRun } from "./Connections.ts"

export const MappingKind = Schema.Literals(["category", "product", "discount", "shipping", "tax", "tip", "fee", "refund", "payout"]).annotate({
  description: "What kind of provider amount the mapping routes."
})
export type MappingKind = typeof MappingKind.Type
const Text = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

export const Mapping = Schema.Struct({
  kind: MappingKind,
  source_key: Schema.String,
  account_code: Schema.NullOr(Schema.String),
  class_name: Schema.NullOr(Schema.String),
  project_name: Schema.NullOr(Schema.String),
  updated_at: Timestamp
}).annotate({ identifier: "IntegrationMapping" })

export const Mappings = Schema.Struct({
  connection_id: Id,
  approved: Schema.Boolean,
  approved_at: Schema.NullOr(Timestamp),
  approval_note: Schema.NullOr(Schema.String),
  gaps: Schema.Array(Schema.String),
  data: Schema.Array(Mapping),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "IntegrationMappings" })

export const listMappings = Operation.make({
  id: "listIntegrationMappings",
  method: "GET",
  path: "/v1/integrations/connections/{id}/mappings",
  area,
  summary: "Where each kind of synced amount lands; `*` is each kind's default.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ ...PageQuery }),
  success: Mappings
})

export const setMapping = Operation.make({
  id: "setIntegrationMapping",
  method: "POST",
  path: "/v1/integrations/connections/{id}/mappings",
  area,
  summary: "Map a source key of a kind to an account (null: the kind's default). Withdraws the mapping's approval.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    kind: MappingKind,
    source_key: Text.annotate({ description: "The provider's key for the amount (a category or product id), or * for the kind's default." }),
    account_code: Schema.NullOr(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(20))).annotate({
      description: "The account the amounts post to; null for the kind's default."
    }),
    class_name: Schema.optionalKey(Schema.NullOr(Text).annotate({ description: "A class name (reporting dimension) for the posted lines." })),
    project_name: Schema.optionalKey(Schema.NullOr(Text).annotate({ description: "A project name for the posted lines." }))
  }),
  success: Mappings,
  errors: ["unknown_account", "inactive_account", "unknown_class", "integration_disconnected"]
})

export const approveMappings = Operation.make({
  id: "approveIntegrationMappings",
  method: "POST",
  path: "/v1/integrations/connections/{id}/mappings/approve",
  area,
  summary: "A person approves the mapping: from then on routine postings at or under the threshold post.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000)).annotate({ description: "A note kept with the approval." })) }),
  success: Mappings,
  errors: ["integration_mapping_incomplete", "integration_disconnected"]
})

export const ObjectStatus = Schema.Literals(["posted", "proposed", "pending", "needs_review", "skipped", "rejected"])

export const SyncedObject = Schema.Struct({
  id: Id,
  connection_id: Id,
  external_id: Schema.String,
  type: Schema.String,
  version: Schema.String,
  date: Schema.String,
  total_cents: Cents,
  status: ObjectStatus,
  entry_id: Schema.NullOr(Id),
  proposal_id: Schema.NullOr(Id),
  note: Schema.NullOr(Schema.String),
  updated_at: Timestamp
}).annotate({ identifier: "IntegrationObject" })
export type SyncedObject = typeof SyncedObject.Type

export const listSyncRuns = Operation.make({
  id: "listIntegrationSyncRuns",
  method: "GET",
  path: "/v1/integrations/connections/{id}/sync-runs",
  area,
  summary: "Sync runs, newest first, with their counts and errors.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ ...PageQuery }),
  success: Page(SyncRun)
})

export const listObjects = Operation.make({
  id: "listIntegrationObjects",
  method: "GET",
  path: "/v1/integrations/connections/{id}/objects",
  area,
  summary: "Synced objects and what became of each.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ status: Schema.optionalKey(ObjectStatus), ...PageQuery }),
  success: Page(SyncedObject)
})

export const operations = [listMappings, setMapping, approveMappings, listSyncRuns, listObjects] as const
