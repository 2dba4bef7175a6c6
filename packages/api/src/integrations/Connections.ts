import { Schema } from "effect"
import { Cents, Id, NonNegativeCents, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"

export const area = "4.2 Integrations"

/** Neutral provider identifiers (DECISIONS.md "Outside providers"). */
export const ProviderId = Schema.String.check(Schema.isPattern(/^provider_[a-z]$/u)).annotate({
  description: "A provider identifier, e.g. provider_a."
})
export const IdPath = Schema.Struct({ id: Id })
const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(20))

export const Provider = Schema.Struct({
  provider: ProviderId,
  name: Schema.String,
  kind: Schema.Literals(["payment_processor", "storefront", "point_of_sale"]),
  status: Schema.Literals(["built", "coming"]),
  configured: Schema.Boolean,
  object_types: Schema.Array(Schema.String)
}).annotate({ identifier: "IntegrationProvider" })
export type Provider = typeof Provider.Type

export const ConnectionStatus = Schema.Literals(["pending", "connected", "paused", "disconnected"])

export const Connection = Schema.Struct({
  id: Id,
  provider: ProviderId,
  status: ConnectionStatus,
  external_account_id: Schema.NullOr(Schema.String),
  account_name: Schema.NullOr(Schema.String),
  agent_id: Schema.NullOr(Id),
  clearing_account: Schema.NullOr(Schema.String),
  payout_bank_account_id: Schema.NullOr(Schema.String),
  posting_threshold_cents: NonNegativeCents,
  mapping_approved: Schema.Boolean,
  mapping_approved_at: Schema.NullOr(Timestamp),
  health: Schema.Literals(["ok", "needs_attention", "disconnected"]),
  clearing_balance_cents: Cents,
  provider_balance_cents: Schema.NullOr(Cents),
  proposals_waiting: Schema.Int,
  mapping_gaps: Schema.Array(Schema.String),
  last_sync: Schema.NullOr(Schema.Struct({ id: Id, status: Schema.String, finished_at: Schema.NullOr(Timestamp) })),
  /** The scheduled sync's spacing, and when the next one is due (null while paused or disconnected). */
  sync_interval_minutes: Schema.Int,
  next_sync_at: Schema.NullOr(Timestamp),
  /** The last sync's failure, until a sync succeeds (also emitted as `integration.error`). */
  last_error: Schema.NullOr(Schema.String),
  last_error_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  disconnected_at: Schema.NullOr(Timestamp),
  disconnect_reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "IntegrationConnection" })
export type Connection = typeof Connection.Type

export const listProviders = Operation.make({
  id: "listIntegrationProviders",
  method: "GET",
  path: "/v1/integrations/providers",
  area,
  summary: "The providers sales can flow in from: built ones and coming ones.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Provider)
})

export const listConnections = Operation.make({
  id: "listIntegrationConnections",
  method: "GET",
  path: "/v1/integrations/connections",
  area,
  summary: "Connections with health, clearing balance versus provider, proposals waiting and mapping gaps.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_disconnected: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(Connection)
})

export const createConnection = Operation.make({
  id: "createIntegrationConnection",
  method: "POST",
  path: "/v1/integrations/connections",
  area,
  summary: "Start connecting a provider: the consent URL (OAuth 2.0 with PKCE), valid 15 minutes, shown once.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({ provider: ProviderId, payout_bank_account_id: Schema.optionalKey(Schema.NullOr(AccountCode).annotate({ description: "The bank account (its code) the provider's payouts arrive in." })) }),
  success: Schema.Struct({ id: Id, provider: ProviderId, status: ConnectionStatus, consent_url: Schema.String, expires_at: Timestamp }),
  errors: ["integration_not_available", "integration_provider_not_configured", "unknown_account", "service_unavailable"]
})

export const completeConnection = Operation.make({
  id: "completeIntegrationConnection",
  method: "POST",
  path: "/v1/integrations/connections/complete",
  area,
  summary: "Finish the provider's consent: creates the connection's agent, clearing account and default mapping.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    state: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "The state the provider's redirect carried, as it was." }),
    code: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000)).annotate({ description: "The authorization code the redirect carried." })),
    error: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "The error the redirect carried instead of a code, when the person declined." })),
    posting_threshold_cents: Schema.optionalKey(NonNegativeCents)
  }),
  success: Connection,
  errors: ["integration_consent_invalid", "integration_consent_denied", "bad_gateway", "integration_provider_not_configured"]
})

export const getConnection = Operation.make({
  id: "getIntegrationConnection",
  method: "GET",
  path: "/v1/integrations/connections/{id}",
  area,
  summary: "One connection.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Connection
})

/** How often the integrations worker syncs a connection on its own: 15 minutes to a day (default 60). */
export const SyncIntervalMinutes = Schema.Int.check(Schema.isBetween({ minimum: 15, maximum: 1440 })).annotate({
  description: "Minutes between scheduled syncs, 15 to 1440."
})

export const updateSettings = Operation.make({
  id: "updateIntegrationSettings",
  method: "POST",
  path: "/v1/integrations/connections/{id}/settings",
  area,
  summary: "Payout bank account, posting threshold, paused, minutes between scheduled syncs.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    payout_bank_account_id: Schema.optionalKey(Schema.NullOr(AccountCode).annotate({ description: "The bank account (its code) the provider's payouts arrive in." })),
    posting_threshold_cents: Schema.optionalKey(NonNegativeCents),
    paused: Schema.optionalKey(Schema.Boolean.annotate({ description: "True stops scheduled and asked-for syncs; false resumes them." })),
    sync_interval_minutes: Schema.optionalKey(SyncIntervalMinutes)
  }),
  success: Connection,
  errors: ["integration_disconnected", "unknown_account"]
})

export const SyncRun = Schema.Struct({
  id: Id,
  connection_id: Id,
  status: Schema.Literals(["queued", "running", "succeeded", "failed"]),
  trigger: Schema.Literals(["request", "schedule"]),
  counts: Schema.Struct({
    fetched: Schema.Int,
    posted: Schema.Int,
    proposed: Schema.Int,
    corrected: Schema.Int,
    unchanged: Schema.Int,
    pending: Schema.Int,
    needs_review: Schema.Int
  }),
  errors: Schema.Array(Schema.String),
  created_at: Timestamp,
  finished_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "IntegrationSyncRun" })
export type SyncRun = typeof SyncRun.Type

export const requestSync = Operation.make({
  id: "syncIntegrationConnection",
  method: "POST",
  path: "/v1/integrations/connections/{id}/sync",
  area,
  summary: "Ask for a sync now: 202 with the queued run; the integrations worker runs it within a minute or two.",
  scope: "propose",
  mode: "-",
  status: 202,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: SyncRun,
  errors: ["integration_disconnected", "integration_paused"]
})

export const disconnect = Operation.make({
  id: "disconnectIntegrationConnection",
  method: "POST",
  path: "/v1/integrations/connections/{id}/disconnect",
  area,
  summary: "Disconnect: provider access revoked, tokens deleted, the connection's agent revoked; the books keep what was written.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Connection,
  errors: ["integration_disconnected"]
})

export const operations = [listProviders, listConnections, createConnection, completeConnection, getConnection, updateSettings, requestSync, disconnect] as const
