/**
 * Not a benchmark: runs the engine pipeline on one operation for a while so that
 * `node --cpu-prof --import tsx bench/profile-pipeline.ts` shows where its time goes.
 * BENCH_STORAGE picks the storage (the first listed), PROFILE_OPERATION the operation
 * (createUser, getMe or propose), PROFILE_SECONDS how long, PROFILE_ACCOUNTS the accounts a
 * posting picks from (100; the engine-postings benchmark uses 1,000), PROFILE_OTHER_ACCOUNTS how
 * many accounts another company holds (0), to see what a posting costs among many tenants.
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"

const storage = Options.storages[0] ?? "pglite"
const operation = process.env.PROFILE_OPERATION ?? "createUser"
const engine = await Engine.open(storage, { name: "profile", pgliteMode: "memory" })
try {
  const company = await Engine.createCompany(engine, { starter_chart: "empty", ...(process.env.PROFILE_NO_PERIODS ? { periods: false } : {}) })
  let next: (caller: number, index: number) => { operationId: string; input: Engine.Input }
  if (operation === "propose") {
    const propose = Engine.available(...Postings.paths.propose)
    const createAccount = Engine.available(...Postings.paths.createAccount)
    if (propose === null || createAccount === null) throw new Error("the ledger is not available")
    const codes = await Postings.createAccounts(engine, company, createAccount, Number(process.env.PROFILE_ACCOUNTS ?? 100))
    const otherAccounts = Number(process.env.PROFILE_OTHER_ACCOUNTS ?? 0)
    if (otherAccounts > 0) {
      const other = await Engine.createCompany(engine, { starter_chart: "empty" })
      await engine.query(
        `INSERT INTO accounts (company_id, code, name, type, created_at)
         SELECT $1, (200000 + n)::text, 'Other account ' || n, 'asset', now() FROM generate_series(1, $2::int) AS n`,
        [other.companyId, otherAccounts]
      )
      await engine.query(`ANALYZE accounts`)
    }
    const today = new Date().toISOString().slice(0, 10)
    next = Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 1, entryDate: today })
  } else if (operation === "getMe") {
    next = () => ({ operationId: "getMe", input: { credential: company.ownerKey } })
  } else {
    next = (caller, index) => ({
      operationId: "createUser",
      input: { credential: company.ownerKey, idempotencyKey: Engine.newKey(`u${caller}`), body: { name: `User ${index}`, role: "staff" } }
    })
  }
  const result = await Postings.runCallers({ engine, concurrency: 16, durationSeconds: Number(process.env.PROFILE_SECONDS ?? 10), next })
  process.stdout.write(`${storage} ${operation}: ${JSON.stringify(result)}\n`)
} finally {
  await engine.close()
}
process.exit(0)
