/**
 * Benchmark 3: HTTP latency under a constant arrival rate (open loop, no pipelining, late and
 * failed requests counted) against a real server process on 127.0.0.1:
 * `POST /v1/journal-entries/propose` at 1,000/s and `GET /v1/accounts?include_balances=true` at
 * 2,000/s; until the ledger serves those, the same generator on `POST /v1/users` and `GET /v1/me`.
 * Each open-loop run is preceded by a short closed-loop run that measures the server's capacity.
 */
import * as Engine from "./lib/Engine.ts"
import * as Client from "./lib/HttpClient.ts"
import * as Machine from "./lib/Machine.ts"
import * as OpenLoop from "./lib/OpenLoop.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"

const run = Results.start("http")
const today = new Date().toISOString().slice(0, 10)
const accountCount = 1_000

const describeOpenLoop = (result: OpenLoop.Result): string =>
  `${result.latency.count === 0 ? "no request answered in time" : `p50 ${result.latency.p50_ms} ms, p99 ${result.latency.p99_ms} ms`}, ` +
  `errors ${result.failed}/${result.scheduled}, late ${result.late}, ` +
  `achieved ${Results.formatNumber(result.achieved_rate_per_s)}/s${result.overloaded ? ", OVERLOADED: stopped early" : ""}`

for (const storage of Options.storages) {
  const server = await ServerProcess.start(storage, { name: "http", maxConnections: 20 })
  // PGlite is one connection in one process: a full-length run at rates it cannot sustain only
  // grows a backlog, so it gets a shorter run at the same rate.
  const duration = storage === "postgresql" ? Options.seconds(30, 5) : Options.seconds(10, 3)
  const warmup = Options.seconds(5, 1)
  try {
    const company = await Remote.createCompany(server, { starter_chart: "empty" })
    const auth = Client.bearer(company.ownerKey)
    const ledger = Engine.available(...Postings.paths.propose) !== null &&
      Engine.available(...Postings.paths.createAccount) !== null

    const measure = async (label: string, rate: number, target: string | null, request: (index: number) => Client.RequestSpec) => {
      const capacity = await OpenLoop.closedLoop({ baseUrl: server.baseUrl, concurrency: 16, durationSeconds: Options.seconds(5, 2), request })
      run.add({
        figure: `${label}: capacity, 16 connections closed loop`,
        storage,
        value: `${Results.formatNumber(capacity.rate_per_s)}/s (p99 ${capacity.latency.p99_ms} ms, failed ${capacity.failed})`,
        details: { ...capacity }
      })
      const cpuBefore = Machine.cpuSeconds(server.pid)
      const result = await OpenLoop.run({ baseUrl: server.baseUrl, ratePerSecond: rate, durationSeconds: duration, warmupSeconds: warmup, request })
      const cpuAfter = Machine.cpuSeconds(server.pid)
      const p99Met = result.latency.p99_ms <= 20 && result.failed === 0
      run.add({
        figure: `${label} at ${Results.formatNumber(rate)}/s open loop, ${duration} s`,
        storage,
        value: describeOpenLoop(result),
        ...(target === null ? {} : { target, verdict: p99Met ? "met" : "missed" }),
        details: {
          ...result,
          server_cpu_fraction: cpuBefore === null || cpuAfter === null ? null : Results.formatNumber((cpuAfter - cpuBefore) / (duration + warmup))
        }
      })
    }

    if (ledger) {
      const createAccount = (code: string, index: number) =>
        Client.json(server.baseUrl, {
          method: "POST",
          path: "/v1/accounts",
          headers: { ...auth, "idempotency-key": Remote.newKey("account") },
          body: JSON.stringify({ code, name: `Bench account ${index}`, type: index % 2 === 0 ? "asset" : "expense" })
        }, [201])
      const codes = Array.from({ length: accountCount }, (_, index) => Postings.accountCode(index))
      for (let start = 0; start < codes.length; start += 16) {
        await Promise.all(codes.slice(start, start + 16).map((code, offset) => createAccount(code, start + offset)))
      }
      const draw = Postings.random(11)
      await measure("POST /v1/journal-entries/propose", 1_000, "p99 <= 20 ms, 0 errors", () => {
        const debit = draw(codes.length)
        const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
        return {
          method: "POST",
          path: "/v1/journal-entries/propose",
          headers: { ...auth, "idempotency-key": Remote.newKey("post") },
          body: JSON.stringify(Postings.twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), today))
        }
      })
      await measure("GET /v1/accounts?include_balances=true", 2_000, null, () => ({
        method: "GET",
        path: "/v1/accounts?include_balances=true",
        headers: auth
      }))
    } else {
      run.skip("POST /v1/journal-entries/propose at 1,000/s", storage, "POST /v1/journal-entries/propose", "p99 <= 20 ms, 0 errors")
      run.skip("GET /v1/accounts?include_balances=true at 2,000/s", storage, "GET /v1/accounts")
      await measure("POST /v1/users (stand-in write)", 1_000, null, (index) => ({
        method: "POST",
        path: "/v1/users",
        headers: { ...auth, "idempotency-key": Remote.newKey("user") },
        body: JSON.stringify({ name: `User ${index}`, role: "staff" })
      }))
      await measure("GET /v1/me (stand-in read)", 2_000, null, () => ({ method: "GET", path: "/v1/me", headers: auth }))
    }
  } finally {
    await server.stop()
  }
}

run.note("the load generator runs in the benchmark process on the same 2 cores as the server and PostgreSQL")
run.finish()
process.exit(0)
