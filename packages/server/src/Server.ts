import { NodeHttpServer } from "@effect/platform-node"
import { Clock, Duration, Effect, Layer, ManagedRuntime, Schedule } from "effect"
import { FetchHttpClient, HttpRouter, HttpServer } from "effect/http"
import { Otlp, OtlpSerialization } from "effect/observability"
import { SqlClient } from "effect/sql"
import { Area, Dispatcher, engineVersion, type ReadGate, Entropy, Faults, Idempotency, Ledger, Operator, Ports, Statistics } from "@ledger/engine"
import * as ServerPorts from "./adapters/Ports.ts"
import type { ServerConfig } from "./Config.ts"
import * as Http from "./http/Http.ts"
import * as Logging from "./Logging.ts"
import * as InboxListener from "./mail/InboxListener.ts"
import * as Observability from "./http/Observability.ts"
import * as Pool from "./offload/Pool.ts"
import * as Shutdown from "./http/Shutdown.ts"
import * as SlowClients from "./http/SlowClients.ts"
import * as Storage from "./storage/Storage.ts"
import * as Workers from "./workers/Worker.ts"

export interface AppOptions extends Storage.StorageOptions {
  readonly rateLimits?: boolean
  /** Effect spans per request, for an OpenTelemetry exporter (LEDGER_TRACING=on); default off. */
  readonly tracing?: boolean
  readonly seed?: number
  /**
   * Commit concurrent journal-entry postings together (default on; docs/decisions/0705-group-commit.md).
   * Off makes every write its own transaction (the equivalence test runs both).
   */
  readonly groupCommit?: boolean
  /**
   * Analyze tables that outgrew their planner statistics every few seconds (default on;
   * docs/decisions/0707-planner-statistics.md). Off only where something else analyzes them, such
   * as PostgreSQL's autovacuum.
   */
  readonly analyzeGrownTables?: boolean
  readonly operatorToken?: string | undefined
  /** Told the operator token when one is generated (printed once by the CLI). */
  readonly onOperatorToken?: (token: string) => void
  /**
   * The clock requests read their time from: keys' expiry, rotation overlaps, rate limits and
   * every handler's `now`. Default: the system clock. Tests pass `manualClock()` and move it.
   */
  readonly clock?: Clock.Clock | undefined
  /**
   * The outside ports (bank-feed aggregator, token sealer, mail delivery, ...): real adapters
   * (`portsOf`), or the testkit's fakes. Default: none configured (`Ports.layerUnconfigured`), so
   * bank feeds answer 503 bank_feeds_not_configured and emails wait.
   */
  readonly providers?: Layer.Layer<Ports.All, unknown> | undefined
  /** The client address of a request is the first X-Forwarded-For hop (LEDGER_TRUST_PROXY=1; http/Http.ts). Default off. */
  readonly trustProxy?: boolean
  /** Where clients reach the API (LEDGER_BASE_URL): the Web Connector's .qwc names it. */
  readonly publicBaseUrl?: string | undefined
  /** Crash points for reliability tests (engine kernel/Faults.ts); absent: none. */
  readonly faults?: Faults.FaultPoints
  /** Reads at once, queued, and how long queued, per process (LEDGER_READS_*; engine pipeline/shedding/ReadGate.ts); default none, as an embedded engine (`ledger serve` passes its configuration's). */
  readonly readAdmission?: ReadGate.Limits
}

/** A clock a test moves by hand; sleeping and elapsed-time measures stay on the system clock. */
export interface ManualClock extends Clock.Clock {
  /** The current time, in milliseconds since the epoch. */
  readonly now: () => number
  /** Sets the time: milliseconds since the epoch, an ISO timestamp or a Date. */
  readonly set: (time: number | string | Date) => void
  /** Moves the time forward (or back, with a negative amount). */
  readonly advance: (duration: Duration.Input) => void
}

const toMillis = (time: number | string | Date): number => {
  const millis = typeof time === "number" ? time : typeof time === "string" ? Date.parse(time) : time.getTime()
  if (!Number.isFinite(millis)) throw new Error(`not a time: ${String(time)}`)
  return millis
}

/** A `ManualClock` that starts at `start` (default: the system time when it is made). */
export const manualClock = (start: number | string | Date = Date.now()): ManualClock => {
  const system = Clock.Clock.defaultValue()
  let millis = toMillis(start)
  return {
    now: () => millis,
    set: (time) => {
      millis = toMillis(time)
    },
    advance: (duration) => {
      millis += Duration.toMillis(Duration.fromInputUnsafe(duration))
    },
    currentTimeMillisUnsafe: () => millis,
    currentTimeMillis: Effect.sync(() => millis),
    currentTimeNanosUnsafe: () => BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => system.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: system.monotonicTimeNanos,
    sleep: (duration) => system.sleep(duration)
  }
}

/** How often a server forgets idempotency records past their retention, and how many at a time. */
const idempotencyPurgeEvery = Duration.hours(1)
const idempotencyPurgeBatch = 10_000

/**
 * Forgets expired idempotency records now and then, for as long as the layer lives, and makes
 * their room reusable (`Idempotency.reclaimSpace`).
 */
const idempotencyPurge = (clock: Clock.Clock) =>
  Layer.effectDiscard(Effect.forkScoped(Effect.gen(function*() {
    const now = new Date(clock.currentTimeMillisUnsafe()).toISOString()
    const first = yield* Idempotency.purgeExpired(now, idempotencyPurgeBatch)
    let purged = first
    while (purged === idempotencyPurgeBatch) purged = yield* Idempotency.purgeExpired(now, idempotencyPurgeBatch)
    if (first > 0) yield* Idempotency.reclaimSpace()
  }).pipe(
    Effect.catchCause((cause) => Effect.logWarning("Idempotency purge failed; it will run again", cause)),
    Effect.repeat(Schedule.spaced(idempotencyPurgeEvery))
  )))

/**
 * How often a server looks for tables that have outgrown their planner statistics (Statistics.ts).
 * A look is one catalog query; an ANALYZE only when a table doubled.
 */
const statisticsEvery = Duration.seconds(5)

/** Keeps planner statistics up with the tables' growth, for as long as the layer lives (PGlite has no autovacuum). */
const statisticsUpkeep = Layer.effectDiscard(Effect.forkScoped(Statistics.analyzeGrown().pipe(
  Effect.catchCause((cause) => Effect.logWarning("Analyzing grown tables failed; it will run again", cause)),
  Effect.repeat(Schedule.spaced(statisticsEvery))
)))

/**
 * The engine over migrated storage, with the operator token in place and the ports provided (and
 * kept in the context, for the workers and the testkit). The ports are built after storage: the
 * master key may be generated into the data folder, which PGlite must have made first.
 */
export const engineLayer = (options: AppOptions): Layer.Layer<Dispatcher | Area.EngineServices | SqlClient.SqlClient | Ports.All, unknown> => {
  const storage = Storage.layer(options)
  const clock = options.clock ?? Clock.Clock.defaultValue()
  const operator = Layer.effectDiscard(Effect.gen(function*() {
    const now = new Date(clock.currentTimeMillisUnsafe()).toISOString()
    const result = yield* Operator.ensure(options.operatorToken, now)
    if (result.generated !== null) options.onOperatorToken?.(result.generated)
  })).pipe(Layer.provide(options.seed === undefined ? Entropy.layer : Entropy.layerSeeded(options.seed + 1)))
  return Layer.mergeAll(
    Ledger.layer({
      storage: Storage.kind(options),
      rateLimits: options.rateLimits ?? true,
      tracing: options.tracing ?? false,
      groupCommit: options.groupCommit ?? true,
      clock,
      ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.readAdmission === undefined ? {} : { readAdmission: options.readAdmission })
    }),
    operator,
    idempotencyPurge(clock),
    options.analyzeGrownTables === false ? Layer.empty : statisticsUpkeep
  ).pipe(
    // Crash points for reliability tests only (kernel/Faults.ts); absent, every point does nothing.
    Layer.provide(options.faults === undefined ? Layer.empty : Layer.succeed(Faults.Faults)(options.faults)),
    Layer.provideMerge(options.providers ?? Ports.layerUnconfigured),
    // Where reports read (a replica while it is fresh, ADR 2410); kept in context for /metrics.
    Layer.provideMerge(Storage.readReplica(options)),
    Layer.provideMerge(storage)
  )
}

/** Every route over the engine: what both the Node server and the in-process web handler serve. */
export const appLayer = (options: AppOptions) =>
  Http.routes.pipe(Layer.provideMerge(engineLayer(options)))

/**
 * A Fetch-style handler `(Request) => Promise<Response>` over the whole app, with no network:
 * the testkit and embedders that bring their own server use it.
 */
export const webHandler = (options: AppOptions) =>
  HttpRouter.toWebHandler(appLayer(options).pipe(Layer.provide(HttpServer.layerServices)) as never, {
    disableLogger: true
  }) as { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> }

/**
 * The whole app in this process with no network: a Fetch-style handler plus the runtime that
 * holds the engine and its SQL client (tests inspect tables through it; the testkit builds on it).
 */
export const inProcess = async (options: AppOptions) => {
  const runtime = ManagedRuntime.make(engineLayer(options))
  const context = await runtime.context()
  const web = HttpRouter.toWebHandler(
    Http.routes.pipe(
      Layer.provide(Layer.succeedContext(context)),
      Layer.provide(HttpServer.layerServices),
      Layer.provide(Layer.succeed(Http.TrustProxy)(options.trustProxy ?? false)),
      // The routes outside the engine that read the time (OAuth) read the app's clock too.
      Layer.provide(options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock)(options.clock))
    ) as never,
    { disableLogger: true }
  ) as { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> }
  return {
    handler: web.handler,
    runtime,
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}

/**
 * The ports `ledger serve` wires from its settings (adapters/Ports.ts): SMTP mail, the master key's
 * sealer, and the unconfigured layer of the rest, which `unconfigured` names.
 */
export const portsOf = (config: ServerConfig): ServerPorts.Wired =>
  ServerPorts.wire({
    smtp: config.smtp,
    masterKey: config.masterKey,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    appUrl: process.env.LEDGER_APP_URL ?? config.baseUrl
  })

const shutdownTimeoutOf = (config: ServerConfig) => config.shutdownTimeoutMs ?? Shutdown.defaultTimeoutMs

/**
 * The Node HTTP server on the configured host and port. Storage is opened and migrated before the
 * port is bound: a request that arrives while the server starts is refused (connection refused,
 * which clients and load balancers retry) rather than accepted and left without an answer. The
 * ports are the configured ones (`portsOf`) unless `options.providers` gives others.
 */
export const serverLayer = (config: ServerConfig, options: Partial<AppOptions> = {}) =>
  HttpRouter.serve(Http.routes, { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(
      () => Shutdown.bounded(SlowClients.createServer(config.slowClients ?? SlowClients.defaults), shutdownTimeoutOf(config)),
      { port: config.port, host: config.host, gracefulShutdownTimeout: Duration.millis(shutdownTimeoutOf(config)) }
    )),
    Layer.merge(Workers.fromEnvironment()),
    // The receipt inbox's SMTP listener, over the same engine (LEDGER_INBOUND_SMTP_PORT; none when unset).
    Layer.merge(config.inboundSmtp == null
      ? Layer.empty
      : InboxListener.layer({ ...config.inboundSmtp, closeTimeoutMs: shutdownTimeoutOf(config) })),
    Layer.provide(engineLayer({
      databaseUrl: config.databaseUrl,
      databasePooler: config.databasePooler,
      readDatabaseUrl: config.readDatabase?.url,
      readMaxStalenessMs: config.readDatabase?.maxStalenessMs,
      dataDir: config.dataDir,
      operatorToken: config.operatorToken,
      rateLimits: config.rateLimits,
      tracing: config.tracing || config.otlp !== null,
      pgliteOptimizedWasm: config.pgliteWasm.tier === "optimizing",
      publicBaseUrl: config.baseUrl,
      faults: Faults.fromSetting(config.faultCrash, () => process.kill(process.pid, "SIGKILL")),
      ...(config.readAdmission === undefined ? {} : { readAdmission: config.readAdmission }),
      ...options,
      providers: options.providers ?? portsOf(config).layer
    })),
    Layer.provide(Layer.succeed(Observability.AccessLog)(config.accessLog)),
    Layer.provide(Layer.succeed(Observability.GenerateRequestIds)(true)),
    Layer.provide(Layer.succeed(Http.TrustProxy)(config.trustProxy ?? false)),
    Layer.provide(Layer.succeed(SlowClients.BodyTimeout)(config.slowClients?.bodyTimeoutMs ?? SlowClients.defaults.bodyTimeoutMs!)),
    Layer.provide(Layer.succeed(SlowClients.BodyReadsPerAddress)(config.slowClients?.bodyReadsPerAddress ?? SlowClients.defaults.bodyReadsPerAddress!)),
    // One line per entry, written in batches (Logging.ts): a write per request cost a fifth of a read.
    Layer.provide(Logging.layer(config.logFormat)),
    Layer.provide(config.otlp === null ? Layer.empty : otlpLayer(config.otlp)),
    // Heavy work (mail, PDFs, statements, qbXML pages) in worker threads, for every layer above (ADR 2320).
    Layer.provide(Pool.layer(config.workerPool ?? Pool.defaults))
  )

/** OpenTelemetry over OTLP/HTTP with JSON bodies: Effect's own exporter of spans, metrics and logs. */
const otlpLayer = (otlp: NonNullable<ServerConfig["otlp"]>) =>
  Otlp.layer({
    baseUrl: otlp.endpoint,
    resource: { serviceName: otlp.serviceName, serviceVersion: engineVersion },
    loggerMergeWithExisting: true,
    tracerExportInterval: "2 seconds",
    metricsExportInterval: "10 seconds"
  }).pipe(Layer.provide([FetchHttpClient.layer, OtlpSerialization.layerJson]))
