import * as Client from "./HttpClient.ts"
import { type LatencySummary, now, round, Samples } from "./Stats.ts"

/**
 * An open-loop load generator: requests are sent on a fixed schedule whatever the server's pace,
 * so a slow server cannot slow the load down and hide its own latency (coordinated omission).
 * Latency is measured from each request's scheduled time. No pipelining: a connection carries one
 * request at a time, and the agent opens more connections as the backlog needs.
 */
export interface Options {
  readonly baseUrl: string
  readonly ratePerSecond: number
  readonly durationSeconds: number
  /** Sent at the same rate first, not recorded: lets the server's JIT and pools warm up. */
  readonly warmupSeconds?: number
  readonly request: (index: number) => Client.RequestSpec
  readonly isSuccess?: (status: number, text: string) => boolean
  readonly socketsMax?: number
  /** A request not answered this long after its scheduled time is abandoned and counted failed. */
  readonly timeoutMs?: number
  /**
   * When more than this share of the requests so far have failed, the server is overloaded: the run
   * stops scheduling (so it stays bounded in time) and reports itself overloaded.
   */
  readonly abandonAtFailedFraction?: number
  /** A request that could not even be put on a connection this long after its time is late. */
  readonly lateAfterMs?: number
}

export interface Result {
  readonly target_rate_per_s: number
  readonly duration_s: number
  readonly scheduled: number
  readonly succeeded: number
  readonly failed: number
  readonly failures: Record<string, number>
  /** Put on a connection more than lateAfterMs after its scheduled time. */
  readonly late: number
  readonly achieved_rate_per_s: number
  /** From each request's scheduled time to its last response byte: what a client sees. */
  readonly latency: LatencySummary
  /** From the moment the request had a connection: the server's share. */
  readonly service_latency: LatencySummary
  readonly connections_max: number
  /** The run stopped early because the server fell too far behind. */
  readonly overloaded: boolean
}

/** One phase's run: its settings, its tallies so far, and where its result goes. */
interface Phase {
  readonly options: Options
  readonly durationSeconds: number
  /** The index of the phase's first request among all the run's (the warm-up's come first). */
  readonly offset: number
  /** Whether latencies are recorded (not in the warm-up). */
  readonly record: boolean
  readonly resolve: (result: Result) => void
  readonly agent: ReturnType<typeof Client.agent>
  readonly interval: number
  readonly timeoutMs: number
  readonly abandonAt: number
  readonly lateAfterMs: number
  readonly isSuccess: (status: number, text: string) => boolean
  readonly latency: Samples
  readonly service: Samples
  readonly failures: Record<string, number>
  readonly started: number
  total: number
  overloaded: boolean
  succeeded: number
  failed: number
  late: number
  sent: number
  finished: number
  connectionsMax: number
  lastDone: number
}

const newPhase = (options: Options, durationSeconds: number, offset: number, record: boolean, resolve: (result: Result) => void): Phase => {
  const started = now()
  return {
    options,
    durationSeconds,
    offset,
    record,
    resolve,
    agent: Client.agent(options.socketsMax ?? 1024),
    interval: 1000 / options.ratePerSecond,
    timeoutMs: options.timeoutMs ?? 5_000,
    abandonAt: options.abandonAtFailedFraction ?? 0.05,
    lateAfterMs: options.lateAfterMs ?? 10,
    isSuccess: options.isSuccess ?? ((status: number) => status >= 200 && status < 300),
    latency: new Samples(),
    service: new Samples(),
    failures: {},
    started,
    total: Math.round(options.ratePerSecond * durationSeconds),
    overloaded: false,
    succeeded: 0,
    failed: 0,
    late: 0,
    sent: 0,
    finished: 0,
    connectionsMax: 0,
    lastDone: started
  }
}

/** Notes how many connections the agent holds now, for `connections_max`. */
const countConnections = (phase: Phase): void => {
  const sockets = Object.values(phase.agent.sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0)
  phase.connectionsMax = Math.max(phase.connectionsMax, sockets)
}

const countFailure = (phase: Phase, key: string): void => {
  phase.failures[key] = (phase.failures[key] ?? 0) + 1
}

/** Resolves the phase once every request is sent and finished. */
const done = (phase: Phase): void => {
  if (phase.sent < phase.total || phase.finished < phase.total) return
  const elapsedSeconds = (phase.lastDone - phase.started) / 1000
  countConnections(phase)
  phase.agent.destroy()
  phase.resolve({
    target_rate_per_s: phase.options.ratePerSecond,
    duration_s: phase.durationSeconds,
    scheduled: phase.total,
    succeeded: phase.succeeded,
    failed: phase.failed,
    failures: phase.failures,
    late: phase.late,
    achieved_rate_per_s: round(phase.succeeded / Math.max(elapsedSeconds, phase.durationSeconds)),
    latency: phase.latency.summary(),
    service_latency: phase.service.summary(),
    connections_max: phase.connectionsMax,
    overloaded: phase.overloaded
  })
}

/** Sends request `index`, due at `scheduled`, and tallies its answer measured from that time. */
const fire = (phase: Phase, index: number, scheduled: number): void => {
  let onConnection = scheduled
  const spec = phase.options.request(phase.offset + index)
  const abort = new AbortController()
  const deadline = setTimeout(() => abort.abort(new Error("timeout")), Math.max(1, scheduled + phase.timeoutMs - now()))
  Client.request(phase.options.baseUrl, spec, {
    agent: phase.agent,
    timeoutMs: phase.timeoutMs,
    signal: abort.signal,
    onSocket: () => {
      onConnection = now()
      if (onConnection - scheduled > phase.lateAfterMs) phase.late++
    }
  }).then(
    (response) => {
      const end = now()
      if (phase.isSuccess(response.status, response.text)) phase.succeeded++
      else {
        phase.failed++
        countFailure(phase, String(response.status))
      }
      if (phase.record) {
        phase.latency.add(end - scheduled)
        phase.service.add(end - onConnection)
      }
    },
    (error: Error) => {
      phase.failed++
      countFailure(phase, abort.signal.aborted ? `no answer within ${phase.timeoutMs} ms` : error.message.slice(0, 40))
    }
  ).finally(() => {
    clearTimeout(deadline)
    phase.finished++
    phase.lastDone = now()
    done(phase)
  })
}

/** Sends every request now due, stops scheduling when the server is overloaded, and comes back next turn. */
const tick = (phase: Phase): void => {
  const due = Math.min(phase.total, Math.floor((now() - phase.started) / phase.interval) + 1)
  while (phase.sent < due) {
    const index = phase.sent++
    fire(phase, index, phase.started + index * phase.interval)
  }
  if (phase.sent < phase.total && phase.failed > 100 && phase.failed > phase.abandonAt * phase.sent) {
    phase.overloaded = true
    phase.total = phase.sent
    done(phase)
  }
  if (phase.sent < phase.total) {
    if (phase.sent % 256 === 0) countConnections(phase)
    setTimeout(() => tick(phase), 0)
  }
}

const phase = (options: Options, durationSeconds: number, offset: number, record: boolean): Promise<Result> =>
  new Promise((resolve) => tick(newPhase(options, durationSeconds, offset, record, resolve)))

export const run = async (options: Options): Promise<Result> => {
  const warmup = options.warmupSeconds ?? 0
  if (warmup > 0) await phase(options, warmup, 0, false)
  return phase(options, options.durationSeconds, Math.round(warmup * options.ratePerSecond), true)
}

/**
 * A closed loop: `concurrency` callers each send their next request when the last one answers.
 * It measures capacity (requests per second at saturation), not latency under a given load.
 */
export const closedLoop = async (options: {
  readonly baseUrl: string
  readonly concurrency: number
  readonly durationSeconds: number
  readonly request: (index: number) => Client.RequestSpec
  readonly isSuccess?: (status: number, text: string) => boolean
}): Promise<{ readonly rate_per_s: number; readonly succeeded: number; readonly failed: number; readonly latency: LatencySummary }> => {
  const agent = Client.agent(options.concurrency)
  const isSuccess = options.isSuccess ?? ((status: number) => status >= 200 && status < 300)
  const samples = new Samples()
  let index = 0
  let succeeded = 0
  let failed = 0
  const started = now()
  const deadline = started + options.durationSeconds * 1000
  const worker = async () => {
    while (now() < deadline) {
      const begin = now()
      try {
        const response = await Client.request(options.baseUrl, options.request(index++), { agent })
        if (isSuccess(response.status, response.text)) succeeded++
        else failed++
      } catch {
        failed++
      }
      samples.add(now() - begin)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const elapsed = (now() - started) / 1000
  agent.destroy()

  return { rate_per_s: round(succeeded / elapsed), succeeded, failed, latency: samples.summary() }
}
