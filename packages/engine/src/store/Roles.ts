import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The application role on PostgreSQL (issue 19 item 6, ADR 0009, docs/reliability.md): the role the
 * server connects as, granted what serving needs and nothing more. The owner role, which owns the
 * schema and runs the migrations, grants it with `ledger migrate` (LEDGER_APP_ROLE) after every
 * migration, since a migration's new tables start with no grants.
 *
 * What the application role is refused, beside every trigger's refusals:
 * - DDL: it owns nothing and has no CREATE on the schema (ALTER TABLE ... DISABLE TRIGGER, DROP,
 *   CREATE all fail), and session_replication_role is a superuser's setting;
 * - TRUNCATE, REFERENCES and TRIGGER on every table;
 * - UPDATE and DELETE on the append-only tables (those whose rows a trigger of
 *   ledger_refuse_change guards: journal entries and lines, the audit logs), found from the catalog
 *   so a later append-only table is covered; DELETE on the totals, which it may only add to
 *   through the lines' trigger (that trigger runs as the role that inserts the lines), and on the
 *   company audit log's heads, which only its chaining trigger moves (migration 0049);
 * - writing ledger_migrations.
 */

/** A role name as it may be written unquoted, so that the statements below can name it plainly. */
export const roleNamePattern = /^[a-z_][a-z0-9_]{0,62}$/

export class BadRoleName extends Data.TaggedError("BadRoleName")<{ readonly role: string }> {
  override get message(): string {
    return `"${this.role}" is not a role name Ledger grants to: lower-case letters, digits and _, at most 63`
  }
}

/**
 * One statement, run in the schema the session's search_path names (tests migrate one schema
 * each): makes the role if it is missing (NOLOGIN: the operator gives it a password and LOGIN, or
 * grants it to a login role) and grants it. Run again at will; it only converges.
 */
export const grantStatement = (role: string): string => `DO $$
DECLARE
  role_name text := '${role}';
  schema_name text := current_schema();
  guarded text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role_name) THEN
    EXECUTE format('CREATE ROLE %I NOLOGIN', role_name);
  END IF;
  EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC', schema_name);
  EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM %I', schema_name, role_name);
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', schema_name, role_name);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO %I', schema_name, role_name);
  EXECUTE format('REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA %I FROM %I', schema_name, role_name);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO %I', schema_name, role_name);
  -- The server's statistics upkeep (ADR 0707) runs ANALYZE, which needs ownership before
  -- PostgreSQL 17's MAINTAIN privilege; before 17 the role's ANALYZE is skipped with a warning and
  -- autovacuum's analyze alone keeps the statistics.
  IF current_setting('server_version_num')::int >= 170000 THEN
    EXECUTE format('GRANT MAINTAIN ON ALL TABLES IN SCHEMA %I TO %I', schema_name, role_name);
  END IF;
  FOR guarded IN
    SELECT DISTINCT c.relname FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE c.relnamespace = schema_name::regnamespace AND p.proname = 'ledger_refuse_change'
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE ON %I.%I FROM %I', schema_name, guarded, role_name);
  END LOOP;
  FOR guarded IN
    SELECT DISTINCT c.relname FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE c.relnamespace = schema_name::regnamespace
        AND p.proname IN ('ledger_refuse_direct_totals', 'ledger_refuse_direct_audit_heads')
  LOOP
    EXECUTE format('REVOKE DELETE ON %I.%I FROM %I', schema_name, guarded, role_name);
  END LOOP;
  EXECUTE format('REVOKE INSERT, UPDATE, DELETE ON %I.ledger_migrations FROM %I', schema_name, role_name);
END $$`

/** Grants (and if need be creates) the application role in the current schema. */
export const grantApplicationRole = Effect.fn("Roles.grantApplicationRole")(function*(role: string) {
  if (!roleNamePattern.test(role)) return yield* new BadRoleName({ role })
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(grantStatement(role))
})
