/**
 * Not a benchmark: makes a PostgreSQL schema with this build's migrations and a company of
 * ACCOUNTS accounts (100), leaves it in place, and prints it as JSON for `batch-checks.sh`:
 * `{"schema", "company", "accounts": [ids]}`. Drop it afterwards (`DROP SCHEMA ... CASCADE`).
 */
import * as Engine from "../lib/Engine.ts"
import * as Postings from "../lib/Postings.ts"

const engine = await Engine.open("postgresql", { name: "sql" })
const company = await Engine.createCompany(engine, { starter_chart: "empty" })
const createAccount = Engine.available(...Postings.paths.createAccount)
if (createAccount === null) throw new Error("the ledger is not available")
await Postings.createAccounts(engine, company, createAccount, Number(process.env.ACCOUNTS ?? 100))
const accounts = await engine.query<{ id: string }>(`SELECT id FROM accounts WHERE company_id = $1 ORDER BY id`, [company.companyId])
process.stdout.write(`${JSON.stringify({
  schema: engine.location.slice("schema ".length),
  company: company.companyId,
  accounts: accounts.map((account) => Number(account.id))
})}\n`)
// Without close: closing drops the schema.
process.exit(0)
