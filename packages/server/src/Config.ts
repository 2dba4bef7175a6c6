import { ReadGate } from "@ledger/engine"
import * as MasterKey from "./adapters/MasterKey.ts"
import * as S3BlobStore from "./adapters/S3BlobStore.ts"
import * as InboxListener from "./mail/InboxListener.ts"
import * as SmtpMail from "./adapters/SmtpMail.ts"
import * as Shutdown from "./http/Shutdown.ts"
import * as SlowClients from "./http/SlowClients.ts"
import * as Pool from "./offload/Pool.ts"
import * as PgliteWasm from "./storage/pglite/PgliteWasm.ts"

/**
 * The server's settings, read once from the environment (DESIGN.md, Configuration).
 */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  /** PostgreSQL; unset means embedded PGlite. */
  readonly databaseUrl: string | undefined
  /**
   * LEDGER_READ_DATABASE_URL: a hot standby of DATABASE_URL that reports read from while fresh, and
   * LEDGER_READ_MAX_STALENESS_MS its bound (storage/Storage.ts, ADR 2410). Absent: none.
   */
  readonly readDatabase?: { readonly url: string; readonly maxStalenessMs: number } | undefined
  /** PGlite folder, or "memory" for none. */
  readonly dataDir: string
  /**
   * LEDGER_DATABASE_POOLER=transaction: DATABASE_URL leads to a pooler that hands a server
   * connection out per transaction (PgBouncer's pool_mode=transaction), so statements are not
   * prepared by name (a named statement would be missing on the next transaction's connection).
   * Absent: a direct connection, statements prepared and cached.
   */
  readonly databasePooler?: "transaction" | undefined
  readonly operatorToken: string | undefined
  readonly baseUrl: string
  readonly rateLimits: boolean
  /** LEDGER_TRACING=on records Effect spans per request (off by default: they cost CPU). */
  readonly tracing: boolean
  /**
   * Which V8 tier runs embedded PGlite's WebAssembly: LEDGER_PGLITE_WASM=optimizing or baseline
   * (about 0.6 GB less at peak, about a third slower), or by default the baseline compiler only
   * where the process may use under 2 GiB (PgliteWasm.ts, docs/decisions/0716-pglite-wasm-chosen-by-memory.md).
   */
  readonly pgliteWasm: PgliteWasm.Choice
  /**
   * LEDGER_MASTER_KEY: seals secrets at rest (adapters/MasterKey.ts). Required for bank feeds with
   * PostgreSQL; embedded use generates one into the data folder when it is unset.
   */
  readonly masterKey: string | undefined
  /** SMTP for the mail port (adapters/SmtpMail.ts); null: emails wait in their jobs until it is set. */
  readonly smtp: SmtpMail.SmtpConfig | null
  /** LEDGER_ACCESS_LOG=off stops the line per request (http/Observability.ts); on by default. */
  readonly accessLog: boolean
  /** LEDGER_LOG_FORMAT=json writes every log line, access lines included, as one JSON object. */
  readonly logFormat: "text" | "json"
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT (OpenTelemetry's own setting): traces, metrics and logs are exported
   * there over OTLP/HTTP (JSON), and spans are recorded as with LEDGER_TRACING=on; unset, nothing is.
   */
  readonly otlp: { readonly endpoint: string; readonly serviceName: string } | null
  /** The receipt inbox's SMTP listener (mail/InboxListener.ts, LEDGER_INBOUND_SMTP_PORT); null or absent: none. */
  readonly inboundSmtp?: InboxListener.Settings | null
  /** LEDGER_TRUST_PROXY=1: a request's client address is the first X-Forwarded-For hop (http/Http.ts); off by default. */
  readonly trustProxy?: boolean
  /** How long a client may take to send headers and body (http/SlowClients.ts); default when absent. */
  readonly slowClients?: SlowClients.Limits
  /** LEDGER_SHUTDOWN_TIMEOUT_MS: how long a stop waits for open connections (http/Shutdown.ts); default when absent. */
  readonly shutdownTimeoutMs?: number
  /**
   * LEDGER_FAULT_CRASH (reliability tests only): `before_commit:N`, `after_commit:N` or
   * `between_import_batches:N` kills the process there (kernel/Faults.ts).
   */
  readonly faultCrash?: string | undefined
  /** Worker threads for heavy work (offload/Pool.ts, LEDGER_WORKER_*); default when absent. */
  readonly workerPool?: Pool.Settings
  /** Admission control for reads (LEDGER_READS_CONCURRENT, _QUEUED, _QUEUE_WAIT_MS; engine pipeline/shedding/ReadGate.ts); default when absent. */
  readonly readAdmission?: ReadGate.Limits
}

/** A whole number of at least `least` from the environment, or the default. */
const whole = (environment: Record<string, string | undefined>, name: string, fallback: number, least: number): number => {
  const raw = environment[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} must be a whole number of at least ${least}, got ${raw}`)
  return value
}

/** The read gate's bounds (docs/operations.md "Reads under overload"). */
const readAdmissionOf = (environment: Record<string, string | undefined>): ReadGate.Limits => ({
  concurrent: whole(environment, "LEDGER_READS_CONCURRENT", ReadGate.defaults.concurrent, 1),
  queued: whole(environment, "LEDGER_READS_QUEUED", ReadGate.defaults.queued, 0),
  queueWaitMs: whole(environment, "LEDGER_READS_QUEUE_WAIT_MS", ReadGate.defaults.queueWaitMs, 0)
})

const otlpOf = (environment: Record<string, string | undefined>): ServerConfig["otlp"] => {
  const endpoint = environment.OTEL_EXPORTER_OTLP_ENDPOINT
  if (endpoint === undefined || endpoint === "") return null
  if (!/^https?:\/\//.test(endpoint)) throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got ${endpoint}`)
  return { endpoint: endpoint.replace(/\/+$/, ""), serviceName: environment.OTEL_SERVICE_NAME ?? "ledger" }
}

/** The staleness bound's largest setting: an hour (a replica further behind is no place for reports). */
const readMaxStalenessMsMax = 3_600_000

const readDatabaseOf = (environment: Record<string, string | undefined>): ServerConfig["readDatabase"] => {
  const url = environment.LEDGER_READ_DATABASE_URL
  if (url === undefined || url === "") return undefined
  if ((environment.DATABASE_URL ?? "") === "") throw new Error("LEDGER_READ_DATABASE_URL needs DATABASE_URL: a read replica is of a PostgreSQL primary")
  const setting = environment.LEDGER_READ_MAX_STALENESS_MS
  const maxStalenessMs = setting === undefined || setting === "" ? 5000 : Number(setting)
  if (!Number.isInteger(maxStalenessMs) || maxStalenessMs < 0 || maxStalenessMs > readMaxStalenessMsMax) {
    throw new Error(`LEDGER_READ_MAX_STALENESS_MS must be a whole number of milliseconds from 0 to ${readMaxStalenessMsMax}, got ${setting}`)
  }
  return { url, maxStalenessMs }
}

/** The settings in `environment`, for a process that may use `memoryBytes` (the machine's or its cgroup's). */
export const fromEnvironment = (
  environment: Record<string, string | undefined> = process.env,
  memoryBytes: number = PgliteWasm.processMemoryBytes()
): ServerConfig => {
  const port = Number(environment.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got ${environment.PORT}`)
  const host = environment.HOST ?? "127.0.0.1"
  const masterKey = environment.LEDGER_MASTER_KEY === "" ? undefined : environment.LEDGER_MASTER_KEY
  // A malformed key is refused at start, not at the first bank feed.
  if (masterKey !== undefined) MasterKey.parse(masterKey)
  // So are receipt-store settings naming an S3 bucket half-way (adapters/S3BlobStore.ts).
  S3BlobStore.fromEnvironment(environment)
  const pooler = environment.LEDGER_DATABASE_POOLER ?? ""
  if (pooler !== "" && pooler !== "none" && pooler !== "transaction") {
    throw new Error(`LEDGER_DATABASE_POOLER must be transaction or none, got ${pooler}`)
  }
  const logFormat = environment.LEDGER_LOG_FORMAT ?? "text"
  if (logFormat !== "text" && logFormat !== "json") throw new Error(`LEDGER_LOG_FORMAT must be text or json, got ${logFormat}`)
  return {
    port,
    host,
    databaseUrl: environment.DATABASE_URL === "" ? undefined : environment.DATABASE_URL,
    readDatabase: readDatabaseOf(environment),
    dataDir: environment.LEDGER_DATA_DIR ?? "./.ledger",
    ...(pooler === "transaction" ? { databasePooler: "transaction" as const } : {}),
    operatorToken: environment.LEDGER_OPERATOR_TOKEN,
    baseUrl: environment.LEDGER_BASE_URL ?? `http://${host}:${port}`,
    rateLimits: environment.LEDGER_RATE_LIMITS !== "off",
    tracing: environment.LEDGER_TRACING === "on",
    pgliteWasm: PgliteWasm.choose(PgliteWasm.parseSetting(environment.LEDGER_PGLITE_WASM), memoryBytes),
    masterKey,
    smtp: SmtpMail.fromEnvironment(environment),
    accessLog: environment.LEDGER_ACCESS_LOG !== "off",
    logFormat,
    otlp: otlpOf(environment),
    inboundSmtp: InboxListener.fromEnvironment(environment, host),
    trustProxy: environment.LEDGER_TRUST_PROXY === "1" || environment.LEDGER_TRUST_PROXY === "true",
    slowClients: SlowClients.fromEnvironment(environment),
    shutdownTimeoutMs: Shutdown.fromEnvironment(environment),
    faultCrash: environment.LEDGER_FAULT_CRASH,
    workerPool: Pool.fromEnvironment(environment),
    readAdmission: readAdmissionOf(environment)
  }
}
