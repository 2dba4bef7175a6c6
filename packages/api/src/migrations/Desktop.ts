import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"

export const area = "4.16 Migrations"
export const IdPath = Schema.Struct({ id: Id })
const migrationErrors = ["service_unavailable"] as const

export const Step = Schema.Struct({
  step: Schema.String,
  status: Schema.Literals(["waiting", "running", "done"]),
  fetched: Schema.Int,
  remaining: Schema.NullOr(Schema.Int)
})

export const ImportSummary = Schema.Struct({
  id: Id,
  source: Schema.Literals(["desktop", "online"]),
  connection_id: Id,
  status: Schema.Literals(["imported", "failed", "cut_over"]),
  result: Schema.Literals(["PASS", "FAIL"]),
  entries: Schema.Int,
  differences: Schema.Array(Schema.Unknown),
  created_at: Timestamp,
  cut_over_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "MigrationImport" })
export type ImportSummary = typeof ImportSummary.Type

export const DesktopConnection = Schema.Struct({
  id: Id,
  status: Schema.Literals(["created", "extracting", "extracted", "locked", "revoked", "expired", "cut_over"]),
  as_of: DateString,
  include_tax_ids: Schema.Boolean,
  company_file: Schema.NullOr(Schema.String),
  failed_password_attempts: Schema.Int,
  steps: Schema.Array(Step),
  bundle: Schema.NullOr(Schema.Struct({ accounts: Schema.Int, transactions: Schema.Int, tieout_passed: Schema.Boolean })),
  imports: Schema.Array(ImportSummary),
  expires_at: Timestamp,
  created_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "DesktopMigrationConnection" })
export type DesktopConnection = typeof DesktopConnection.Type

export const createDesktop = Operation.make({
  id: "createDesktopMigrationConnection",
  method: "POST",
  path: "/v1/migrations/desktop/connections",
  area,
  summary: "A connection for the desktop edition's Web Connector: the password and a single-use download token, shown once.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({ as_of: DateString, include_tax_ids: Schema.optionalKey(Schema.Boolean) }),
  success: Schema.Struct({
    connection: DesktopConnection,
    user_name: Schema.String.annotate({
      description: "The Web Connector's user name for this connection (`ledger-` and 20 random characters), shown here and in the connector file only."
    }),
    password: Schema.String,
    download_token: Schema.String,
    soap_url: Schema.String
  }),
  errors: [...migrationErrors]
})

export const listDesktop = Operation.make({
  id: "listDesktopMigrationConnections",
  method: "GET",
  path: "/v1/migrations/desktop/connections",
  area,
  summary: "Desktop-edition connections, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(DesktopConnection),
  errors: [...migrationErrors]
})

export const getDesktop = Operation.make({
  id: "getDesktopMigrationConnection",
  method: "GET",
  path: "/v1/migrations/desktop/connections/{id}",
  area,
  summary: "One connection: progress per extraction step, the bundle, imports.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: DesktopConnection,
  errors: [...migrationErrors]
})

export const downloadQwc = Operation.make({
  id: "downloadDesktopMigrationQwc",
  method: "POST",
  path: "/v1/migrations/desktop/connections/{id}/qwc",
  area,
  summary: "The Web Connector's connector file (.qwc), once, for the download token.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({
    download_token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "The download_token the connection's creation answered." })
  }),
  success: Schema.Struct({ file_name: Schema.String, content_type: Schema.String, qwc: Schema.String }),
  errors: ["download_token_invalid", "migration_connection_revoked", "migration_connector_url_unusable", ...migrationErrors]
})

export const Tieout = Schema.Struct({
  connection_id: Id,
  passed: Schema.Boolean,
  as_of: DateString,
  months: Schema.Array(Schema.Struct({ month_end: DateString, passed: Schema.Boolean, differences: Schema.Array(Schema.Unknown) })),
  ar_aging: Schema.Struct({ source_cents: Schema.Int, computed_cents: Schema.Int, passed: Schema.Boolean }),
  ap_aging: Schema.Struct({ source_cents: Schema.Int, computed_cents: Schema.Int, passed: Schema.Boolean }),
  markdown: Schema.String
}).annotate({ identifier: "MigrationTieout" })

export const desktopTieout = Operation.make({
  id: "getDesktopMigrationTieout",
  method: "GET",
  path: "/v1/migrations/desktop/connections/{id}/tieout",
  area,
  summary: "The extraction's tie-out as JSON and Markdown, once the bundle exists.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Tieout,
  errors: ["bundle_not_ready", ...migrationErrors]
})

export const revokeDesktop = Operation.make({
  id: "revokeDesktopMigrationConnection",
  method: "POST",
  path: "/v1/migrations/desktop/connections/{id}/revoke",
  area,
  summary: "Revoke: final; staged raw data wiped.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: DesktopConnection,
  errors: ["migration_connection_revoked", ...migrationErrors]
})

export const unlockDesktop = Operation.make({
  id: "unlockDesktopMigrationConnection",
  method: "POST",
  path: "/v1/migrations/desktop/connections/{id}/unlock",
  area,
  summary: "Unlock a connection locked after repeated wrong passwords.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: DesktopConnection,
  errors: ["migration_connection_revoked", "migration_connection_not_locked", ...migrationErrors]
})

export const importDesktop = Operation.make({
  id: "importDesktopMigration",
  method: "POST",
  path: "/v1/migrations/desktop/connections/{id}/import",
  area,
  summary: "Import into empty books; refused unless the extraction tie-out passed; the ledger's own tie-out decides PASS or FAIL.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: ImportSummary,
  errors: ["bundle_not_ready", "tieout_failed", "books_not_empty", "migration_connection_revoked", "migration_already_imported", ...migrationErrors]
})

export const listImports = Operation.make({
  id: "listMigrations",
  method: "GET",
  path: "/v1/migrations",
  area,
  summary: "Imports with their tie-out results.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(ImportSummary),
  errors: [...migrationErrors]
})

export const cutover = Operation.make({
  id: "cutOverMigration",
  method: "POST",
  path: "/v1/migrations/{id}/cutover",
  area,
  summary: "Cut over: final; revokes the import's connection.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: ImportSummary,
  errors: ["migration_not_passed", "migration_already_cut_over", ...migrationErrors]
})

export const operations = [
  createDesktop, listDesktop, getDesktop, downloadQwc, desktopTieout, revokeDesktop, unlockDesktop, importDesktop, listImports, cutover
] as const
