import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * Past one database (issue 43 item 6, docs/operations.md "Past one database"): a distributed
 * PostgreSQL (Citus and the like) spreads a table by one column and co-locates rows with equal
 * values, so a company's books can live on one node only when every one of its tables carries
 * `company_id` and leads its primary key with it. This reads the checked-in schema dump (which
 * test/store/schema.test.ts holds to what the migrations make) and fails on a table that breaks
 * that without a reason below. The exceptions are the tables that are not one company's: they
 * would be reference tables (copied to every node) or distributed by their own key.
 */

/** Tables without `company_id`, and why. */
const notOneCompanys: Readonly<Record<string, string>> = {
  operator_credentials: "the operator's, above every company",
  ledger_migrations: "the schema's own bookkeeping",
  migration_usage: "a deployment-wide monthly count of imports",
  firms: "a firm serves many companies: distributed by firm, or a reference table",
  firm_members: "a firm's",
  firm_agents: "a firm's",
  firm_keys: "a firm's",
  firm_sessions: "a firm's",
  auth_challenges: "a sign-in in progress, before a company is chosen",
  auth_throttle: "sign-in limits by address and by person, across companies",
  oauth_clients: "an AI app registers once for every company",
  oauth_codes: "an authorization in progress, keyed by its code",
  oauth_tokens: "looked up by the token's hash on every MCP call, before the company is known",
  idempotency_records: "keyed by the caller's scope, which names the company or firm inside the key"
}

/** Tables with `company_id` whose primary key does not start with it, and why. */
const keyedOtherwise: Readonly<Record<string, string>> = {
  ai_connections: "a connection is a company's or a firm's (company_id is null for a firm's)",
  ai_connection_agents: "keyed by connection; a firm's connection spans its clients",
  ai_connection_usage: "keyed by connection, as its connection is",
  auth_sessions: "a person's session, for a company or a firm",
  auth_email_links: "looked up by the link's token before a company is chosen",
  auth_tickets: "looked up by the ticket before a company is chosen",
  auth_mails: "a person's sign-in mail",
  auth_passkeys: "a person's, who may belong to several companies",
  auth_recovery_codes: "a person's",
  auth_totp: "a person's",
  firm_audit_events: "the firm's own hash chain",
  jobs: "the queue's: a job may have no company (company_id is null for deployment jobs)",
  online_payment_events: "deduplicated by the processor's event id before its company is known",
  receipt_inbox_retired: "looked up by the retired address's token when mail arrives",
  journal_lines: "no primary key: rows of an entry, always read by (company_id, entry_id)",
  journal_entry_checks: "no primary key: the deferred balance check's queue, by (company_id, entry_id)"
}

const schema = (): string =>
  readFileSync(join(dirname(createRequire(import.meta.url).resolve("@ledger/engine")), "store", "schema.sql"), "utf8")

interface Table {
  readonly name: string
  readonly columns: ReadonlyArray<string>
  readonly primaryKey: ReadonlyArray<string> | null
}

const tables = (text: string): Array<Table> =>
  [...text.matchAll(/^CREATE TABLE (\w+) \((.*?)\n\);/gmsu)].map(([, name, body]) => ({
    name: name!,
    columns: [...body!.matchAll(/^ {2}(\w+) /gmu)].map((match) => match[1]!).filter((column) => column !== "CONSTRAINT"),
    primaryKey: /PRIMARY KEY \(([^)]*)\)/u.exec(body!)?.[1]!.split(",").map((column) => column.trim()) ?? null
  }))

describe("every table is led by company_id in its keys, or says why not", () => {
  const all = tables(schema())

  it("reads the schema's tables", () => {
    expect(all.length).toBeGreaterThan(100)
    expect(all.find((table) => table.name === "accounts")?.primaryKey).toEqual(["company_id", "id"])
  })

  it("a table without company_id is one of the tables that are not one company's", () => {
    const found = all.filter((table) => !table.columns.includes("company_id")).map((table) => table.name).sort()
    expect(found).toEqual(Object.keys(notOneCompanys).sort())
  })

  it("a company's table leads its primary key with company_id, or is listed with its reason", () => {
    const found = all
      .filter((table) => table.columns.includes("company_id") && table.primaryKey?.[0] !== "company_id")
      .map((table) => table.name)
      .sort()
    expect(found).toEqual(Object.keys(keyedOtherwise).sort())
  })
})
