import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { Catalog, type Operation } from "@ledger/api"
import { type Dispatcher, Ledger, type Outcome } from "@ledger/engine"
import { Server } from "@ledger/server"
import * as Options from "./Options.ts"

export type Input = Parameters<typeof Ledger.call>[1]

/** An engine in this process, as an embedding program runs it: no HTTP, the same Dispatcher. */
export interface BenchEngine {
  readonly storage: Options.StorageKind
  /** Where the data lives: "schema bench_x", "memory", or a folder. */
  readonly location: string
  readonly operatorToken: string
  readonly call: (operationId: string, input: Input) => Promise<Outcome>
  /** The same call as an Effect, for callers that run many of them in one fiber tree. */
  readonly callEffect: (operationId: string, input: Input) => Effect.Effect<Outcome, never, Dispatcher>
  readonly runtime: ManagedRuntime.ManagedRuntime<Dispatcher | SqlClient.SqlClient, unknown>
  readonly query: <Row = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Row>>
  /** Statements run in order in one transaction on one connection. */
  readonly transaction: (statements: ReadonlyArray<string>) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Opens an engine over a fresh PostgreSQL schema, or over PGlite (file-backed in a temporary folder
 * by default: the embedded mode a server uses; "memory" on request).
 */
export const open = async (
  storage: Options.StorageKind,
  options: {
    readonly name: string
    readonly maxConnections?: number
    readonly pgliteMode?: "file" | "memory"
    /** PGlite's WebAssembly on V8's optimizing tier (default) or its baseline compiler (ADR 0704). */
    readonly pgliteOptimizedWasm?: boolean
  }
): Promise<BenchEngine> => {
  const operatorToken = `bench-operator-${Math.random().toString(36).slice(2)}-${Date.now()}`
  let location: string
  let cleanup: () => void = () => undefined
  let appOptions: Server.AppOptions
  if (storage === "postgresql") {
    const searchPath = Options.freshSchema(options.name)
    location = `schema ${searchPath}`
    appOptions = {
      databaseUrl: Options.databaseUrl,
      searchPath,
      maxConnections: options.maxConnections ?? 20,
      operatorToken,
      rateLimits: false
    }
  } else if ((options.pgliteMode ?? "file") === "memory") {
    location = "memory"
    appOptions = { dataDir: "memory", operatorToken, rateLimits: false }
  } else {
    const folder = mkdtempSync(path.join(os.tmpdir(), `ledger-bench-${options.name}-`))
    location = folder
    cleanup = () => rmSync(folder, { recursive: true, force: true })
    appOptions = { dataDir: folder, operatorToken, rateLimits: false }
  }
  const runtime = ManagedRuntime.make(Server.engineLayer({
    ...appOptions,
    ...(options.pgliteOptimizedWasm === undefined ? {} : { pgliteOptimizedWasm: options.pgliteOptimizedWasm })
  }))
  await runtime.context()
  const callEffect = (operationId: string, input: Input) => Ledger.call(operationId, input)
  const query: BenchEngine["query"] = (text, params = []) =>
    runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(text, params)) as never
    }))
  const transaction: BenchEngine["transaction"] = (statements) =>
    runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(Effect.forEach(statements, (statement) =>
        sql.unsafe(statement).pipe(
          Effect.mapError((error) => new Error(`${deepestMessage(error)}\n in: ${statement.slice(0, 300)}`))
        ), { discard: true }))
    }))
  return {
    storage,
    location,
    transaction,
    operatorToken,
    runtime,
    callEffect,
    call: (operationId, input) => runtime.runPromise(callEffect(operationId, input)),
    query,
    close: async () => {
      if (storage === "postgresql") {
        await query(`DROP SCHEMA IF EXISTS ${location.slice("schema ".length)} CASCADE`).catch(() => undefined)
      }
      await runtime.dispose()
      cleanup()
    }
  }
}

/** The database's own message, under the SQL client's wrappers. */
const deepestMessage = (error: unknown): string => {
  let current: unknown = error
  while (typeof current === "object" && current !== null && "cause" in current && current.cause !== undefined) current = current.cause
  return current instanceof Error ? `${current.message}${"code" in current ? ` (${String(current.code)})` : ""}` : String(current)
}

let keyCounter = 0
/** A unique Idempotency-Key. */
export const newKey = (prefix = "bench"): string => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(keyCounter++).toString(36)}`

export interface Company {
  readonly companyId: string
  readonly ownerKey: string
}

const expectStatus = (outcome: Outcome, statuses: ReadonlyArray<number>, what: string): Outcome => {
  if (!statuses.includes(outcome.status)) throw new Error(`${what}: ${outcome.status} ${JSON.stringify(outcome.body)}`)
  return outcome
}

/** A company with an owner key, made the way an operator makes one. */
export const createCompany = async (
  engine: BenchEngine,
  body: Record<string, unknown> = {}
): Promise<Company> => {
  const outcome = expectStatus(
    await engine.call("createCompany", {
      credential: engine.operatorToken,
      idempotencyKey: newKey("company"),
      body: { name: "Bench Co", owner_name: "Owner", plan: "owned", ...body }
    }),
    [201],
    "company creation"
  )
  const created = outcome.body as { company: { company_id: string }; secret: string }
  return { companyId: created.company.company_id, ownerKey: created.secret }
}

/** The id of the catalog operation at a method and path, if the catalog has one. */
export const operationAt = (method: string, specPath: string): Operation.Any | undefined =>
  (Catalog.operations as ReadonlyArray<Operation.Any>).find((operation) => operation.method === method && operation.path === specPath)

/**
 * The id of the operation at a method and path when the catalog declares it and the engine has its
 * handler (the workspace's engine, which the benchmarks' servers run too); null until it lands.
 */
export const available = (method: string, specPath: string): string | null => {
  const operation = operationAt(method, specPath)
  return operation !== undefined && Ledger.handlers.has(operation.id) ? operation.id : null
}

export { expectStatus }
