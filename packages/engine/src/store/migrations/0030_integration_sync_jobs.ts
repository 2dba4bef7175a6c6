/**
 * Integration syncs as background jobs (issue 30; docs/integrations.md, ADR 1604): each
 * connection's schedule (every `sync_interval_minutes`, 15 minutes to a day; the next run due at
 * `next_sync_at`) and its last error, recorded where the connection is read and emitted as
 * `integration.error`. The index finds the connections whose sync is due without a scan.
 */
export const sql = `
ALTER TABLE integration_connections
  ADD COLUMN sync_interval_minutes int NOT NULL DEFAULT 60 CHECK (sync_interval_minutes BETWEEN 15 AND 1440),
  ADD COLUMN next_sync_at timestamptz,
  ADD COLUMN last_error text CHECK (length(last_error) <= 2000),
  ADD COLUMN last_error_at timestamptz;

CREATE INDEX integration_connections_due ON integration_connections (next_sync_at) WHERE status = 'connected';
`
