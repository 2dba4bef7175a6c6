/**
 * The stalls bench's probes (bench/stalls.ts) in a process of their own: `GET /health` and another
 * company's `GET /v1/accounts?limit=5`, each sent every 10 ms, one at a time, until told to stop.
 * They ran beside the load's client before, whose own work (nodemailer encoding 25 MB mails) held
 * that process's event loop for up to seconds and was counted as the server's. `start` forks this
 * file; run as the child, it probes and answers the latencies over IPC.
 */
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Client from "../HttpClient.ts"
import { now, Samples } from "../Stats.ts"

const probeEveryMs = 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Probed {
  readonly latencies: Array<number>
  readonly failed: number
}

/** Sends `spec` every `probeEveryMs` until `done()`, one at a time, and keeps each latency. */
const probe = async (baseUrl: string, spec: Client.RequestSpec, done: () => boolean): Promise<Probed> => {
  const latencies: Array<number> = []
  const agent = Client.agent(1)
  let failed = 0
  while (!done()) {
    const begin = now()
    const status = await Client.request(baseUrl, spec, { agent, timeoutMs: 120_000 }).then((response) => response.status, () => 0)
    if (status !== 200) failed++
    const took = now() - begin
    latencies.push(took)
    if (took < probeEveryMs) await sleep(probeEveryMs - took)
  }
  agent.destroy()
  return { latencies, failed }
}

const samplesOf = (probed: Probed) => {
  const samples = new Samples()
  for (const latency of probed.latencies) samples.add(latency)
  return { samples, failed: probed.failed }
}

/** Forks the probes against `baseUrl` (the other company's key `token`); resolves once they run. */
export const start = async (baseUrl: string, token: string) => {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_PROBE_BASE_URL: baseUrl, BENCH_PROBE_TOKEN: token },
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const answer = new Promise<{ health: Probed; other: Probed }>((resolve, reject) => {
    child.on("message", (message: { kind: string; health?: Probed; other?: Probed }) => {
      if (message.kind === "done") resolve({ health: message.health!, other: message.other! })
    })
    child.once("exit", (code) => reject(new Error(`the probes' process exited (${code}) before answering`)))
  })
  await new Promise<void>((resolve, reject) => {
    child.on("message", (message: { kind: string }) => message.kind === "started" && resolve())
    child.once("exit", (code) => reject(new Error(`the probes' process exited (${code}) before starting`)))
  })
  return {
    stop: async () => {
      child.send({ kind: "stop" })
      const { health, other } = await answer
      return { health: samplesOf(health), other: samplesOf(other) }
    }
  }
}

// As the child: probe until the parent says stop, then answer and exit.
if (process.send !== undefined && process.env.BENCH_PROBE_BASE_URL !== undefined) {
  const baseUrl = process.env.BENCH_PROBE_BASE_URL
  let stopped = false
  process.on("message", (message: { kind: string }) => {
    if (message.kind === "stop") stopped = true
  })
  const done = () => stopped
  const running = Promise.all([
    probe(baseUrl, { method: "GET", path: "/health" }, done),
    probe(baseUrl, { method: "GET", path: "/v1/accounts?limit=5", headers: Client.bearer(process.env.BENCH_PROBE_TOKEN ?? "") }, done)
  ])
  process.send({ kind: "started" })
  const [health, other] = await running
  process.send({ kind: "done", health, other }, () => process.exit(0))
}
