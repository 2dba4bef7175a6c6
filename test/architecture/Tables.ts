import ts from "typescript"
import { readSource, typeScriptFiles } from "./Sources.ts"

/**
 * Who owns which table, and which tables each engine file names in its SQL (issue 42 item 1).
 * An area owns the tables its migrations create; the layers below the areas (pipeline, store)
 * own the tables every write passes through. Read from the migrations' own text and from the
 * SQL in tagged templates (`sql\`...\``) and `sql.unsafe("...")`, never from prose.
 */

const migrationsFolder = "packages/engine/src/store/migrations"

/** Each migration's owner: the baselines by their area, the later ones by what they change. */
const migrationOwners: Readonly<Record<string, string>> = {
  "0001_foundation.ts": "administration",
  "0002_ledger.ts": "ledger",
  "0003_sales.ts": "sales",
  "0004_banking.ts": "banking",
  "0005_reports.ts": "reports",
  "0006_firms.ts": "firms",
  "0007_auth.ts": "auth",
  "0008_webhooks.ts": "webhooks",
  "0009_receipts.ts": "receipts",
  "0010_profile.ts": "profile",
  "0011_tax.ts": "tax",
  "0012_taxforms.ts": "taxforms",
  "0013_payroll.ts": "payroll",
  "0014_mileage.ts": "mileage",
  "0015_estimated_taxes.ts": "estimated-taxes",
  "0016_crypto.ts": "crypto",
  "0017_integrations.ts": "integrations",
  "0018_migrations.ts": "migrations",
  "0019_ai_apps.ts": "ai-apps",
  "0020_ai_consent.ts": "ai-consent",
  "0021_online_payments.ts": "online-payments",
  "0022_billing.ts": "billing",
  "0023_sign_in_limits.ts": "auth",
  "0025_ai_app_limits.ts": "ai-apps",
  "0027_estimated_tax_reminders.ts": "estimated-taxes",
  "0032_database_rules.ts": "ledger",
  "0049_company_audit_chain.ts": "pipeline",
  // Written and read only by the blob store's database layer (ports/BlobStore.ts), not by receipts.
  "0054_receipt_blob_parts.ts": "ports"
}

/**
 * Tables the foundation migration creates for the layers rather than for the administration area:
 * every write passes through them (idempotency, audit, outbox, jobs), or they are the webhooks'.
 */
const tableOwnerOverrides: Readonly<Record<string, string>> = {
  idempotency_records: "pipeline",
  audit_events: "pipeline",
  outbox_events: "pipeline",
  jobs: "pipeline",
  webhook_endpoints: "webhooks"
}

const createdTable = /create\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)/giu

/** Table name -> owning folder (an area's folder under packages/engine/src, or a layer's). */
export const tableOwners = (): Map<string, string> => {
  const owners = new Map<string, string>()
  for (const file of typeScriptFiles(migrationsFolder)) {
    const name = file.split("/").at(-1)!
    for (const match of readSource(file).matchAll(createdTable)) {
      const table = match[1]!.toLowerCase()
      const owner = tableOwnerOverrides[table] ?? migrationOwners[name]
      if (owner === undefined) throw new Error(`${file} creates ${table}: name its owner in test/architecture/Tables.ts`)
      owners.set(table, owner)
    }
  }
  return owners
}

/** The text of every SQL statement in a file: tagged templates whose tag is `sql`, and `sql.unsafe` literals. */
export const sqlTexts = (file: string, text: string): Array<{ readonly sql: string; readonly line: number }> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: Array<{ readonly sql: string; readonly line: number }> = []
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && /(^|\.)sql$/u.test(node.tag.getText(source))) {
      const template = node.template
      const parts = ts.isNoSubstitutionTemplateLiteral(template)
        ? [template.text]
        : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)]
      found.push({ sql: parts.join(" ? "), line: lineOf(node) })
    } else if (ts.isCallExpression(node) && /(^|\.)unsafe$/u.test(node.expression.getText(source))) {
      const first = node.arguments[0]
      if (first !== undefined && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) found.push({ sql: first.text, line: lineOf(node) })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Where a statement names a table: after FROM, JOIN, INTO, UPDATE, TABLE or REFERENCES. */
const namedTable = /\b(?:from|join|into|update|table|references|exists)\s+(?:only\s+)?([a-z_][a-z0-9_]*)/giu

export interface Reach {
  readonly file: string
  readonly folder: string
  readonly table: string
  readonly owner: string
  readonly line: number
}

/** The folder under packages/engine/src a file belongs to: an area's or a layer's. */
export const folderOf = (file: string): string => file.replace(/^packages\/engine\/src\//u, "").split("/")[0]!.replace(/\.ts$/u, "")

/** Every statement in the engine that names a table another folder owns. */
export const reaches = (): Array<Reach> => {
  const owners = tableOwners()
  const found: Array<Reach> = []
  for (const file of typeScriptFiles("packages/engine/src")) {
    if (file.startsWith(`${migrationsFolder}/`)) continue
    const folder = folderOf(file)
    const seen = new Set<string>()
    for (const statement of sqlTexts(file, readSource(file))) {
      for (const match of statement.sql.matchAll(namedTable)) {
        const table = match[1]!.toLowerCase()
        const owner = owners.get(table)
        if (owner === undefined || owner === folder || seen.has(table)) continue
        seen.add(table)
        found.push({ file, folder, table, owner, line: statement.line })
      }
    }
  }
  return found
}
