/**
 * The public doors limited (issue 41 item 4, docs/decisions/2300-public-doors-limited.md):
 *
 * - `oauth_clients.client_name` at most 200 characters, as registration and a client's metadata
 *   document refuse or cut it (the consent screen shows it).
 * - A client registered at `/oauth/register` that no connection names is forgotten a day after it
 *   registered: found by its registration time among registered (not document) clients, and the
 *   connections found by client, so each registration deletes a few expired ones cheaply.
 *
 * Registrations and failed authentications are counted in `auth_throttle` (migration 0023), with
 * the sign-in steps; nothing new is needed for that.
 */
export const sql = `
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_client_name_length CHECK (length(client_name) <= 200);
CREATE INDEX oauth_clients_registered ON oauth_clients (created_at) WHERE document_fetched_at IS NULL;
CREATE INDEX ai_connections_client ON ai_connections (client_id);
`
