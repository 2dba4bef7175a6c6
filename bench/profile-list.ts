/**
 * Not a benchmark: `GET /v1/accounts?include_balances=true` straight into the engine, for
 * `node --cpu-prof --import tsx bench/profile-list.ts` (BENCH_STORAGE, PROFILE_SECONDS).
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"

const storage = Options.storages[0] ?? "pglite"
const engine = await Engine.open(storage, { name: "profile_list", pgliteMode: "memory" })
try {
  const company = await Engine.createCompany(engine, { starter_chart: "empty" })
  const createAccount = Engine.available(...Postings.paths.createAccount)
  if (createAccount === null) throw new Error("the ledger is not available")
  const codes = await Postings.createAccounts(engine, company, createAccount, 200)
  const propose = Engine.available(...Postings.paths.propose)
  // Seconds of postings before the reads (PROFILE_POSTING_SECONDS).
  const postings = Number(process.env.PROFILE_POSTING_SECONDS ?? 0)
  if (propose !== null && postings > 0) {
    const today = new Date().toISOString().slice(0, 10)
    await Postings.runCallers({
      engine,
      concurrency: 16,
      durationSeconds: postings,
      next: Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 3, entryDate: today })
    })
  }
  if (process.env.PROFILE_VACUUM === "1") await engine.query("VACUUM ANALYZE")
  const result = await Postings.runCallers({
    engine,
    concurrency: 16,
    durationSeconds: Number(process.env.PROFILE_SECONDS ?? 10),
    next: () => ({ operationId: "listAccounts", input: { credential: company.ownerKey, query: { include_balances: true } } })
  })
  process.stdout.write(`${storage} listAccounts: ${JSON.stringify(result)}\n`)
} finally {
  await engine.close()
}
process.exit(0)
