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

const phase = (options: Options, durationSeconds: number, offset: number, record: boolean): Promise<Result> =>
  new Promise((resolve) => {
    const agent = Client.agent(options.socketsMax ?? 1024)
    const interval = 1000 / options.ratePerSecond
    let total = Math.round(options.ratePerSecond * durationSeconds)
    const timeoutMs = options.timeoutMs ?? 5_000
    const abandonAt = options.abandonAtFailedFraction ?? 0.05
    let overloaded = false
    const lateAfterMs = options.lateAfterMs ?? 10
    const isSuccess = options.isSuccess ?? ((status: number) => status >= 200 && status < 300)
    const latency = new Samples()
    const service = new Samples()
    const failures: Record<string, number> = {}
    let succeeded = 0
    let failed = 0
    let late = 0
    let sent = 0
    let finished = 0
    let connectionsMax = 0
    const started = now()
    let lastDone = started

    const done = () => {
      if (sent < total || finished < total) return
      const elapsedSeconds = (lastDone - started) / 1000
      const sockets = Object.values(agent.sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0)
      connectionsMax = Math.max(connectionsMax, sockets)
      agent.destroy()
      resolve({
        target_rate_per_s: options.ratePerSecond,
        duration_s: durationSeconds,
        scheduled: total,
        succeeded,
        failed,
        failures,
        late,
        achieved_rate_per_s: round(succeeded / Math.max(elapsedSeconds, durationSeconds)),
        latency: latency.summary(),
        service_latency: service.summary(),
        connections_max: connectionsMax,
        overloaded
      })
    }

    const fire = (index: number, scheduled: number) => {
      let onConnection = scheduled
      const spec = options.request(offset + index)
      const abort = new AbortController()
      const deadline = setTimeout(() => abort.abort(new Error("timeout")), Math.max(1, scheduled + timeoutMs - now()))
      Client.request(options.baseUrl, spec, {
        agent,
        timeoutMs,
        signal: abort.signal,
        onSocket: () => {
          onConnection = now()
          if (onConnection - scheduled > lateAfterMs) late++
        }
      }).then(
        (response) => {
          const end = now()
          if (isSuccess(response.status, response.text)) {
            succeeded++
          } else {
            failed++
            const key = String(response.status)
            failures[key] = (failures[key] ?? 0) + 1
          }
          if (record) {
            latency.add(end - scheduled)
            service.add(end - onConnection)
          }
        },
        (error: Error) => {
          failed++
          const key = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : error.message.slice(0, 40)
          failures[key] = (failures[key] ?? 0) + 1
        }
      ).finally(() => {
        clearTimeout(deadline)
        finished++
        lastDone = now()
        done()
      })
    }

    const tick = () => {
      const due = Math.min(total, Math.floor((now() - started) / interval) + 1)
      while (sent < due) {
        const index = sent++
        fire(index, started + index * interval)
      }
      if (sent < total && failed > 100 && failed > abandonAt * sent) {
        overloaded = true
        total = sent
        done()
      }
      if (sent < total) {
        if (sent % 256 === 0) {
          const sockets = Object.values(agent.sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0)
          connectionsMax = Math.max(connectionsMax, sockets)
        }
        setTimeout(tick, 0)
      }
    }
    tick()
  })

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
