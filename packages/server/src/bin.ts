import cluster from "node:cluster"
import { randomBytes } from "node:crypto"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Clock, Effect, Exit, Layer, Runtime } from "effect"
import { AuditChain, DatabaseRoles, FirmAudit } from "@ledger/engine"
import * as Config from "./Config.ts"
import * as Processes from "./Processes.ts"
import * as Server from "./Server.ts"

const usage = `ledger — the Ledger server

  ledger serve [--processes N]
                    start HTTP /v1, MCP at POST /mcp and /openapi.json; with N > 1 (PostgreSQL
                    only), N processes share the port (LEDGER_PROCESSES; docs/operations.md, Scaling)
  ledger migrate    apply migrations and exit
  ledger firm-audit-head FIRM_ID
                    print a firm's audit-log head (seq and hash) as JSON, to record outside the
                    database and give back to GET /v1/firm/audit/verify as anchor_seq, anchor_hash
  ledger audit-head COMPANY_ID
                    print a company's audit-log head (seq and hash) as JSON, to record outside the
                    database and give back to GET /v1/audit/verify as anchor_seq, anchor_hash
  ledger operator-token
                    replace the operator token (a lost one cannot be read back: only its hash is
                    stored) with a new one, printed once (PostgreSQL: while the server runs;
                    embedded PGlite: stop the server first, one process opens its folder)

Environment: PORT, HOST, DATABASE_URL (unset: embedded PGlite in LEDGER_DATA_DIR, default ./.ledger;
"memory" for none), LEDGER_DATABASE_POOLER=transaction (DATABASE_URL leads to a transaction-pooling
PgBouncer: no named prepared statements), LEDGER_PROCESSES, LEDGER_MIGRATION_DATABASE_URL and LEDGER_APP_ROLE (ledger migrate as the
owner role, then grant the application role: docs/operations.md), LEDGER_READ_DATABASE_URL (a hot standby
that reports read from while at most LEDGER_READ_MAX_STALENESS_MS behind, default 5000), LEDGER_OPERATOR_TOKEN, LEDGER_RATE_LIMITS=off, LEDGER_TRACING=on,
LEDGER_PGLITE_WASM=auto|optimizing|baseline (embedded PGlite's WebAssembly compiler; auto: baseline
under 2 GiB of memory), LEDGER_WORKERS=off, LEDGER_SHUTDOWN_TIMEOUT_MS (default 5000:
how long a stop waits for open connections), LEDGER_LOG_FORMAT=text|json, LEDGER_ACCESS_LOG=off,
OTEL_EXPORTER_OTLP_ENDPOINT (OpenTelemetry over OTLP/HTTP) with OTEL_SERVICE_NAME.

Outside providers (a provider left unset answers 503 with a type that names it, or waits):
  mail        LEDGER_SMTP_URL, or LEDGER_SMTP_HOST, LEDGER_SMTP_PORT, LEDGER_SMTP_USER, LEDGER_SMTP_PASS,
              LEDGER_SMTP_SECURE; with LEDGER_MAIL_FROM (unset: emails wait in their jobs)
  master key  LEDGER_MASTER_KEY, 32 bytes as base64 or hex (unset: generated into the data folder;
              required with DATABASE_URL for bank feeds)
  bank feeds  LEDGER_AGGREGATOR_URL, LEDGER_AGGREGATOR_CLIENT_ID, LEDGER_AGGREGATOR_SECRET (the aggregator's
              HTTP adapter; unset: 503 bank_feeds_not_configured)
  receipts    LEDGER_BLOB_STORE=database|s3 (s3: LEDGER_S3_ENDPOINT, LEDGER_S3_BUCKET, LEDGER_S3_REGION,
              LEDGER_S3_ACCESS_KEY_ID, LEDGER_S3_SECRET_ACCESS_KEY, LEDGER_S3_ADDRESSING=path|virtual,
              LEDGER_S3_PREFIX); LEDGER_RECEIPT_READER_URL (OCR)
  inbox       LEDGER_INBOUND_SMTP_PORT (unset: no SMTP listener), LEDGER_INBOUND_SMTP_HOST, LEDGER_INBOX_DOMAIN,
              LEDGER_INBOUND_AUTHSERV_ID (the front server whose Authentication-Results are believed),
              LEDGER_INBOUND_SMTP_TLS_KEY with LEDGER_INBOUND_SMTP_TLS_CERT (STARTTLS)`

const command = process.argv[2] ?? "serve"

/** A setting the server cannot run with is refused in one line, before anything starts. */
const readConfig = (): Config.ServerConfig => {
  try {
    return Config.fromEnvironment()
  } catch (error) {
    process.stderr.write(`ledger: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  }
}
const config = readConfig()

const printOperatorToken = (token: string) => {
  process.stdout.write(
    `\nOperator token (shown once; only its hash is stored):\n\n  ${token}\n\n` +
      `Use it as 'Authorization: Bearer <token>' on POST /v1/companies.\n\n`
  )
}

/**
 * A stop we were asked for (SIGTERM, SIGINT) that tears down cleanly exits 0, not the runtime's
 * 130 for an interruption; a second signal exits 130 at once, without waiting for the teardown
 * (docs/operations.md, Stopping).
 */
const stopOnSignals = () => {
  let signalled = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stderr.write(`ledger: ${signal} again, exiting without waiting\n`)
      process.exit(130)
    }
    signalled = true
    process.stdout.write(`Stopping (${signal}); send it again to exit at once.\n`)
  }
  process.on("SIGTERM", onSignal)
  process.on("SIGINT", onSignal)
  const teardown: Runtime.Teardown = (exit, onExit) =>
    signalled && Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
  // The primary's request to stop is a first signal, never a second: a worker that already had
  // one (a terminal's Ctrl-C reaches the whole process group) keeps draining.
  const fromPrimary = () => {
    if (!signalled) process.kill(process.pid, "SIGTERM")
  }
  return { teardown, fromPrimary }
}

/**
 * Prints an audit log's head with the time it was read (`ledger firm-audit-head`, `ledger
 * audit-head`): what an operator records outside the database. Exit 1 when there is no such log.
 */
const printAuditHead = <A extends object, E>(missing: string, read: Effect.Effect<A | null, E, Layer.Success<ReturnType<typeof Server.engineLayer>>>) =>
  Layer.build(Server.engineLayer({
    databaseUrl: config.databaseUrl,
    databasePooler: config.databasePooler,
    dataDir: config.dataDir,
    operatorToken: config.operatorToken,
    pgliteOptimizedWasm: config.pgliteWasm.tier === "optimizing"
  })).pipe(
    Effect.flatMap((context) => Effect.provide(read, context)),
    Effect.flatMap((head) => Effect.map(Clock.currentTimeMillis, (nowMs) => ({ head, asOf: new Date(nowMs).toISOString() }))),
    Effect.tap(({ asOf, head }) => Effect.sync(() => {
      if (head === null) {
        process.stderr.write(`ledger: ${missing}\n`)
        process.exitCode = 1
      } else {
        process.stdout.write(`${JSON.stringify({ ...head, as_of: asOf })}\n`)
      }
    })),
    Effect.scoped,
    NodeRuntime.runMain
  )

/** Migrates storage and makes sure of the operator token once, in the primary, before any worker starts. */
const prepareStore = (databaseUrl: string | undefined, operatorToken: string | undefined) =>
  Layer.build(Server.engineLayer({
    databaseUrl,
    databasePooler: config.databasePooler,
    dataDir: config.dataDir,
    operatorToken,
    pgliteOptimizedWasm: config.pgliteWasm.tier === "optimizing",
    analyzeGrownTables: false,
    onOperatorToken: printOperatorToken
  })).pipe(Effect.scoped)

/** One server process: the whole server, or one of the workers of `--processes N`. */
const serveOne = (processIndex: number, processCount: number) => {
  const storage = config.databaseUrl === undefined
    ? `embedded PGlite (${config.dataDir === "memory" ? "in memory" : config.dataDir}; ` +
      `${config.pgliteWasm.tier} WebAssembly compiler: ${config.pgliteWasm.reason})`
    : "PostgreSQL"
  const ports = Server.portsOf(config)
  const stop = stopOnSignals()
  // A worker stops when the primary asks, as it would on a signal (Processes.ts).
  Processes.onStopFromPrimary(stop.fromPrimary)
  const first = processIndex <= 1
  // The receipt inbox's SMTP listener runs in the first process only, so its per-address limits
  // hold for the machine; the HTTP port is shared by every process.
  const serving = first ? config : { ...config, inboundSmtp: null }
  const which = processIndex === 0 ? "" : ` (process ${processIndex} of ${processCount}, pid ${process.pid})`
  Effect.gen(function*() {
    yield* Layer.build(Server.serverLayer(serving, { onOperatorToken: printOperatorToken, providers: ports.layer }))
    process.stdout.write(`Ledger listening on http://${config.host}:${config.port} with ${storage}${which}\n`)
    if (serving.inboundSmtp != null) process.stdout.write(`Receipt inbox SMTP on ${serving.inboundSmtp.host}:${serving.inboundSmtp.port} for @${serving.inboundSmtp.domain}\n`)
    if (first && ports.unconfigured.length > 0) process.stdout.write(`Not configured: ${ports.unconfigured.join("; ")}.\n`)
    return yield* Effect.never
  }).pipe(
    // Every log line of a worker names it, access lines included.
    Effect.annotateLogs(processIndex === 0 ? {} : { process: processIndex }),
    Effect.scoped,
    Effect.onExit(() => Effect.sync(() => process.stdout.write(`Ledger stopped${which}.\n`))),
    NodeRuntime.runMain({ teardown: stop.teardown })
  )
}

/** `ledger serve --processes N` in the primary: migrate once, then fork and watch the workers. */
const servePrimary = (processCount: number) => {
  const refused = Processes.refusal(processCount, config.databaseUrl)
  if (refused !== null) {
    process.stderr.write(`ledger: ${refused}\n`)
    process.exit(2)
  }
  Effect.runPromise(prepareStore(config.databaseUrl, config.operatorToken)).then(
    () => {
      process.stdout.write(`Ledger starting ${processCount} processes on http://${config.host}:${config.port} (primary pid ${process.pid})\n`)
      return Processes.supervise({
        count: processCount,
        stopTimeoutMs: config.shutdownTimeoutMs ?? 5_000,
        log: (line) => process.stdout.write(`${line}\n`)
      })
    }
  ).then(
    (code) => {
      process.stdout.write("Ledger stopped.\n")
      process.exit(code)
    },
    (error: unknown) => {
      process.stderr.write(`ledger: could not prepare the store: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    }
  )
}

const processCountOf = (): number => {
  try {
    return Processes.countOf(process.argv.slice(3), process.env)
  } catch (error) {
    process.stderr.write(`ledger: ${error instanceof Error ? error.message : String(error)}\n`)
    return process.exit(2)
  }
}

if (command === "serve") {
  const processCount = processCountOf()
  if (cluster.isWorker) serveOne(Processes.index(), processCount)
  else if (processCount > 1) servePrimary(processCount)
  else serveOne(0, 1)
} else if (command === "migrate" || command === "operator-token") {
  // A new operator token is stored the way LEDGER_OPERATOR_TOKEN is: its hash replaces the old one.
  const replacement = command === "operator-token" ? `ldgop_${randomBytes(32).toString("base64url")}` : undefined
  // Database roles (ADR 0009): migrations run as the owner (LEDGER_MIGRATION_DATABASE_URL, else
  // DATABASE_URL), which then grants the application role named by LEDGER_APP_ROLE.
  const ownerUrl = command === "migrate" && (process.env.LEDGER_MIGRATION_DATABASE_URL ?? "") !== ""
    ? process.env.LEDGER_MIGRATION_DATABASE_URL
    : config.databaseUrl
  const appRole = command === "migrate" && ownerUrl !== undefined && (process.env.LEDGER_APP_ROLE ?? "") !== ""
    ? process.env.LEDGER_APP_ROLE!
    : undefined
  Layer.build(Server.engineLayer({
    databaseUrl: ownerUrl,
    databasePooler: config.databasePooler,
    dataDir: config.dataDir,
    operatorToken: replacement ?? config.operatorToken,
    pgliteOptimizedWasm: config.pgliteWasm.tier === "optimizing",
    onOperatorToken: printOperatorToken
  })).pipe(
    Effect.flatMap((context) => appRole === undefined
      ? Effect.void
      : Effect.provide(DatabaseRoles.grantApplicationRole(appRole), context).pipe(
        Effect.tap(() => Effect.sync(() => process.stdout.write(`Application role ${appRole} granted.\n`))))),
    Effect.scoped,
    Effect.tap(() => Effect.sync(() => replacement === undefined
      ? process.stdout.write("Migrations applied.\n")
      : printOperatorToken(replacement))),
    NodeRuntime.runMain
  )
} else if (command === "firm-audit-head") {
  // The head anchored outside the database (docs/decisions/0903-firm-requests-limited-audited-anchored.md).
  const firmId = Number(process.argv[3])
  if (!Number.isSafeInteger(firmId) || firmId < 1) {
    process.stderr.write("ledger: firm-audit-head needs a firm id: ledger firm-audit-head FIRM_ID\n")
    process.exitCode = 2
  } else {
    printAuditHead(`no firm ${firmId}`, FirmAudit.head(firmId))
  }
} else if (command === "audit-head") {
  // The company log's head anchored outside the database (docs/decisions/2310-company-audit-hash-chain.md).
  const companyId = process.argv[3] ?? ""
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u.test(companyId)) {
    process.stderr.write("ledger: audit-head needs a company id (a lower-case UUID): ledger audit-head COMPANY_ID\n")
    process.exitCode = 2
  } else {
    printAuditHead(`no company ${companyId}`, AuditChain.companyHead(companyId))
  }
} else {
  process.stdout.write(`${usage}\n`)
  process.exitCode = command === "help" || command === "--help" ? 0 : 2
}
