import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Foundation from "./migrations/0001_foundation.ts"
import * as Ledger from "./migrations/0002_ledger.ts"
import * as Sales from "./migrations/0003_sales.ts"
import * as Banking from "./migrations/0004_banking.ts"
import * as Reports from "./migrations/0005_reports.ts"
import * as Firms from "./migrations/0006_firms.ts"
import * as Auth from "./migrations/0007_auth.ts"
import * as Webhooks from "./migrations/0008_webhooks.ts"
import * as Receipts from "./migrations/0009_receipts.ts"
import * as Profile from "./migrations/0010_profile.ts"
import * as Tax from "./migrations/0011_tax.ts"
import * as TaxForms from "./migrations/0012_taxforms.ts"
import * as Payroll from "./migrations/0013_payroll.ts"
import * as Mileage from "./migrations/0014_mileage.ts"
import * as EstimatedTaxes from "./migrations/0015_estimated_taxes.ts"
import * as Crypto from "./migrations/0016_crypto.ts"
import * as Integrations from "./migrations/0017_integrations.ts"
import * as Migrations from "./migrations/0018_migrations.ts"
import * as AiApps from "./migrations/0019_ai_apps.ts"
import * as AiConsent from "./migrations/0020_ai_consent.ts"
import * as OnlinePayments from "./migrations/0021_online_payments.ts"
import * as Billing from "./migrations/0022_billing.ts"
import * as AiAppLimits from "./migrations/0025_ai_app_limits.ts"
import * as EstimatedTaxReminders from "./migrations/0027_estimated_tax_reminders.ts"
import * as SignInLimits from "./migrations/0023_sign_in_limits.ts"
import * as FirmCredentialState from "./migrations/0024_firm_credential_state.ts"
import * as IntegrationSyncJobs from "./migrations/0030_integration_sync_jobs.ts"
import * as DatabaseRules from "./migrations/0032_database_rules.ts"
import * as ImportsInBatches from "./migrations/0033_imports_in_batches.ts"
import * as FilingsApprovedForUpload from "./migrations/0036_filings_approved_for_upload.ts"
import * as WebhookSubscriptions from "./migrations/0038_webhook_subscriptions.ts"
import * as PeriodReopenStamp from "./migrations/0039_period_reopen_stamp.ts"
import * as MigrationConnectionUserNames from "./migrations/0043_migration_connection_user_names.ts"
import * as TurnoverBound from "./migrations/0045_turnover_bound.ts"
import * as OAuthRegistrationLimits from "./migrations/0047_oauth_registration_limits.ts"
import * as CompanyAuditChain from "./migrations/0049_company_audit_chain.ts"
import * as InboxDailyQuota from "./migrations/0051_inbox_daily_quota.ts"
import * as IntegrationProviderBalance from "./migrations/0052_integration_provider_balance.ts"
import * as ReceiptBlobParts from "./migrations/0054_receipt_blob_parts.ts"

/**
 * Numbered migrations, applied in order at start: one baseline per area (issue 18 squashed the
 * migrations 0001-0016 made before anything was released into these), then one migration a
 * change. A migration is never edited once released.
 *
 * A baseline's name ends in `_baseline` because the squashed migrations 1 to 5 were named
 * foundation, ledger, sales, banking and reports: a database that recorded those is one made
 * before the squash, which `run` refuses rather than taking it for one of these.
 */
export const migrations: ReadonlyArray<{ readonly id: number; readonly name: string; readonly sql: string }> = [
  { id: 1, name: "foundation_baseline", sql: Foundation.sql },
  { id: 2, name: "ledger_baseline", sql: Ledger.sql },
  { id: 3, name: "sales_baseline", sql: Sales.sql },
  { id: 4, name: "banking_baseline", sql: Banking.sql },
  { id: 5, name: "reports_baseline", sql: Reports.sql },
  { id: 6, name: "firms_baseline", sql: Firms.sql },
  { id: 7, name: "auth_baseline", sql: Auth.sql },
  { id: 8, name: "webhooks_baseline", sql: Webhooks.sql },
  { id: 9, name: "receipts_baseline", sql: Receipts.sql },
  { id: 10, name: "profile_baseline", sql: Profile.sql },
  { id: 11, name: "tax_baseline", sql: Tax.sql },
  { id: 12, name: "taxforms_baseline", sql: TaxForms.sql },
  { id: 13, name: "payroll_baseline", sql: Payroll.sql },
  { id: 14, name: "mileage_baseline", sql: Mileage.sql },
  { id: 15, name: "estimated_taxes_baseline", sql: EstimatedTaxes.sql },
  { id: 16, name: "crypto_baseline", sql: Crypto.sql },
  { id: 17, name: "integrations_baseline", sql: Integrations.sql },
  { id: 18, name: "migrations_baseline", sql: Migrations.sql },
  { id: 19, name: "ai_apps_baseline", sql: AiApps.sql },
  { id: 20, name: "ai_consent_baseline", sql: AiConsent.sql },
  { id: 21, name: "online_payments_baseline", sql: OnlinePayments.sql },
  { id: 22, name: "billing_baseline", sql: Billing.sql },
  { id: 23, name: "sign_in_limits", sql: SignInLimits.sql },
  { id: 24, name: "firm_credential_state", sql: FirmCredentialState.sql },
  { id: 25, name: "ai_app_limits", sql: AiAppLimits.sql },
  { id: 27, name: "estimated_tax_reminders", sql: EstimatedTaxReminders.sql },
  { id: 30, name: "integration_sync_jobs", sql: IntegrationSyncJobs.sql },
  { id: 32, name: "database_rules", sql: DatabaseRules.sql },
  { id: 33, name: "imports_in_batches", sql: ImportsInBatches.sql },
  { id: 36, name: "filings_approved_for_upload", sql: FilingsApprovedForUpload.sql },
  { id: 38, name: "webhook_subscriptions", sql: WebhookSubscriptions.sql },
  { id: 39, name: "period_reopen_stamp", sql: PeriodReopenStamp.sql },
  { id: 43, name: "migration_connection_user_names", sql: MigrationConnectionUserNames.sql },
  { id: 45, name: "turnover_bound", sql: TurnoverBound.sql },
  { id: 47, name: "oauth_registration_limits", sql: OAuthRegistrationLimits.sql },
  { id: 49, name: "company_audit_chain", sql: CompanyAuditChain.sql },
  { id: 51, name: "inbox_daily_quota", sql: InboxDailyQuota.sql },
  { id: 52, name: "integration_provider_balance", sql: IntegrationProviderBalance.sql },
  { id: 54, name: "receipt_blob_parts", sql: ReceiptBlobParts.sql }
]

/**
 * The database records a migration under a number this build gives another name: it was made by
 * another line of migrations (before the squash of issue 18, or another branch's), and applying
 * this build's on top would leave it half of each. Nothing is changed; the database must be
 * migrated by the build that made it, or discarded.
 */
export class MigrationsMismatch extends Data.TaggedError("MigrationsMismatch")<{
  readonly recorded: ReadonlyArray<{ readonly id: number; readonly name: string }>
}> {
  override get message(): string {
    const found = this.recorded.map((row) => `${row.id} ${row.name}`).join(", ")
    return `this database records migrations that this build numbers otherwise (${found}): it was made by another ` +
      `build, such as one before the migrations were squashed into one baseline per area. Nothing was changed. ` +
      `Open it with the build that made it, or discard it and start again (for ledger serve on PGlite, its data ` +
      `folder: LEDGER_DATA_DIR, ./.ledger by default).`
  }
}

/**
 * Splits a migration into statements, since the extended query protocol takes one at a time.
 * Semicolons inside dollar-quoted bodies (functions) do not end a statement.
 */
export const splitStatements = (text: string): ReadonlyArray<string> => {
  const statements: Array<string> = []
  let current = ""
  let inDollarQuote = false
  for (let index = 0; index < text.length; index++) {
    if (text.startsWith("$$", index)) {
      inDollarQuote = !inDollarQuote
      current += "$$"
      index++
      continue
    }
    const character = text[index]!
    if (character === "-" && text[index + 1] === "-" && !inDollarQuote) {
      const end = text.indexOf("\n", index)
      index = end === -1 ? text.length : end
      current += "\n"
      continue
    }
    if (character === ";" && !inDollarQuote) {
      if (current.trim() !== "") statements.push(current.trim())
      current = ""
      continue
    }
    current += character
  }
  if (current.trim() !== "") statements.push(current.trim())
  return statements
}

/** An arbitrary constant: the advisory lock that keeps two replicas from migrating at once. */
const migrationLockId = 7_413_001

/**
 * Applies every migration not yet applied, all in one transaction, under an advisory lock so that
 * replicas starting together migrate once. Refuses (MigrationsMismatch) a database made by another
 * line of migrations.
 */
export const run = Effect.fn("Migrator.run")(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(${migrationLockId})`
    // Created only when missing: the application role (ADR 0009) may not create anything, and
    // CREATE TABLE IF NOT EXISTS asks for that privilege even when the table is there.
    const [found] = yield* sql<{ found: boolean }>`SELECT to_regclass('ledger_migrations') IS NOT NULL AS found`
    if (found?.found !== true) {
      yield* sql`CREATE TABLE ledger_migrations (
        id int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`
    }
    const rows = yield* sql<{ id: number; name: string }>`SELECT id, name FROM ledger_migrations ORDER BY id`
    const names = new Map(migrations.map((migration) => [migration.id, migration.name]))
    // A number this build does not know is a later build's migration, which this one may run beside
    // (replicas upgrading one by one); a number it knows under another name is another line's.
    const foreign = rows.filter((row) => names.has(Number(row.id)) && names.get(Number(row.id)) !== row.name)
    if (foreign.length > 0) {
      return yield* new MigrationsMismatch({ recorded: foreign.map((row) => ({ id: Number(row.id), name: row.name })) })
    }
    const applied = new Set(rows.map((row) => Number(row.id)))
    // A migration with no SQL yet is an area still being written: it is not recorded as applied.
    const pending = migrations.filter((migration) => !applied.has(migration.id) && migration.sql.trim() !== "")
    for (const migration of pending) {
      for (const statement of splitStatements(migration.sql)) {
        yield* sql.unsafe(statement)
      }
      yield* sql`INSERT INTO ledger_migrations (id, name) VALUES (${migration.id}, ${migration.name})`
    }
    return pending.map((migration) => migration.id)
  }))
})
