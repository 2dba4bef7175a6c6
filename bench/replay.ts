/**
 * Benchmark 8: idempotent replay. A request is sent once, then replayed with the same
 * Idempotency-Key many times, one at a time; the figure is the replay's latency over HTTP against
 * a real server process (what a retrying client sees), and through the engine alone. The replayed
 * request is a two-line posting once the ledger serves it, else `POST /v1/users`.
 */
import * as Engine from "./lib/Engine.ts"
import * as Client from "./lib/HttpClient.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"
import { now, Samples } from "./lib/Stats.ts"

const run = Results.start("replay")
const replays = Options.count(5_000, 200)
const today = new Date().toISOString().slice(0, 10)
const propose = Engine.available(...Postings.paths.propose)

for (const storage of Options.storages) {
  const server = await ServerProcess.start(storage, { name: "replay" })
  try {
    const company = await Remote.createCompany(server, { starter_chart: "general" })
    const key = Remote.newKey("replay")
    let spec: Client.RequestSpec
    let what: string
    if (propose !== null) {
      what = "two-line posting"
      spec = {
        method: "POST",
        path: "/v1/journal-entries/propose",
        headers: Client.bearer(company.ownerKey, { "idempotency-key": key }),
        body: JSON.stringify(await postingBetweenTwoAccounts(server, company, today))
      }
    } else {
      what = "POST /v1/users"
      spec = {
        method: "POST",
        path: "/v1/users",
        headers: Client.bearer(company.ownerKey, { "idempotency-key": key }),
        body: JSON.stringify({ name: "Replayed", role: "staff" })
      }
    }
    const first = await Client.request(server.baseUrl, spec)
    if (first.status !== 201) throw new Error(`first request: ${first.status} ${first.text}`)
    const samples = new Samples()
    const firstBody = canonical(JSON.parse(first.text))
    let wrong = 0
    let reordered = 0
    for (let index = 0; index < replays + 200; index++) {
      const begin = now()
      const response = await Client.request(server.baseUrl, spec)
      const elapsed = now() - begin
      if (response.status !== 201 || response.headers["idempotent-replayed"] !== "true" || canonical(JSON.parse(response.text)) !== firstBody) wrong++
      else if (response.text !== first.text) reordered++
      // The first 200 warm the server up.
      if (index >= 200) samples.add(elapsed)
    }
    const summary = samples.summary()
    run.add({
      figure: `idempotent replay of a ${what}, HTTP, one at a time`,
      storage,
      value: `p50 ${summary.p50_ms} ms, p99 ${summary.p99_ms} ms (${summary.count} replays, ${wrong} not identical)`,
      target: "p99 <= 5 ms",
      verdict: wrong > 0 ? "missed" : Results.verdict(summary.p99_ms, 5, "at most"),
      details: { ...summary, wrong, reordered }
    })
    if (reordered > 0) {
      run.note(`${storage}: replayed bodies equal the first but not byte for byte (object keys reordered)`)
    }
  } finally {
    await server.stop()
  }
}

/** JSON with sorted keys: equal values give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`
  }
  return JSON.stringify(value)
}

/** Two accounts of the company's starter chart: the first asset and the first expense. */
async function postingBetweenTwoAccounts(server: ServerProcess.RunningServer, company: Remote.RemoteCompany, date: string) {
  const accounts = await Client.json(server.baseUrl, { method: "GET", path: "/v1/accounts", headers: Client.bearer(company.ownerKey) })
  const list = accounts.data as Array<{ code: string; type: string }>
  const asset = list.find((account) => account.type === "asset")
  const expense = list.find((account) => account.type === "expense")
  if (asset === undefined || expense === undefined) throw new Error("the starter chart has no asset or expense account")
  return Postings.twoLineEntry(expense.code, asset.code, 12_345, date)
}

run.finish()
process.exit(0)
