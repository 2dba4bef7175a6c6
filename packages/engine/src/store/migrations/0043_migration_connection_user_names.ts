/**
 * Desktop migration connections get an unguessable Web Connector user name (issue 38 item 13,
 * docs/decisions/2110-web-connector-user-names.md). The user name was `ledger-<id>`, the
 * connection's sequential id, so anyone could name a connection and lock it with five wrong
 * passwords. Now `ledger-` and 20 random base64url characters (120 bits), made when the
 * connection is, kept in `user_name` (unique) and looked up by `authenticate`.
 *
 * Existing desktop rows:
 * - a connection whose connector file is already out (download token spent) and that can still
 *   connect (not revoked, cut over or expired) keeps `ledger-<id>`: that is the name in the file
 *   its Web Connector already holds, and no second file can be downloaded. It ends within the
 *   30 days every connection lasts; meanwhile the per-address limit on wrong attempts applies;
 * - every other desktop row gets a random name (its file, if it is ever downloaded, carries it).
 *
 * The random bytes are the first 15 of a SHA-256 over two `gen_random_uuid()` (a strong random
 * source in core PostgreSQL, PGlite included), base64 then made URL-safe as the engine's tokens are.
 */
export const sql = `
ALTER TABLE migration_connections ADD COLUMN user_name text;

UPDATE migration_connections SET user_name = CASE
    WHEN download_token_hash IS NULL AND status NOT IN ('revoked', 'cut_over') AND expires_at > now() THEN 'ledger-' || id
    ELSE 'ledger-' || translate(encode(substring(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) FROM 1 FOR 15), 'base64'), '+/', '-_')
  END
  WHERE source = 'desktop';

ALTER TABLE migration_connections
  ADD CONSTRAINT migration_connections_user_name_length CHECK (length(user_name) <= 100),
  ADD CONSTRAINT migration_connections_user_name_desktop CHECK ((source = 'desktop') = (user_name IS NOT NULL));
CREATE UNIQUE INDEX migration_connections_user_name ON migration_connections (user_name) WHERE user_name IS NOT NULL;
`
