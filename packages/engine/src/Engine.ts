import { Clock, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { Dispatcher, Handlers, type Invocation } from "./pipeline/Dispatcher.ts"
import { EngineInfo, version } from "./kernel/EngineInfo.ts"
import { Entropy } from "./ports/Entropy.ts"
import type * as Ports from "./ports/Ports.ts"
import { GroupCommit } from "./pipeline/batching/GroupCommit.ts"
import { RateLimiter } from "./pipeline/RateLimiter.ts"
import * as ReadGate from "./pipeline/shedding/ReadGate.ts"
import * as Area from "./pipeline/Area.ts"
import * as Authenticate from "./pipeline/Authenticate.ts"
import { Registry } from "./kernel/Registry.ts"
import * as Administration from "./administration/index.ts"
import * as Banking from "./banking/index.ts"
import * as Firms from "./firms/index.ts"
import * as Ledger from "./ledger/index.ts"
import * as Reports from "./reports/index.ts"
import * as Sales from "./sales/index.ts"
import * as Auth from "./auth/index.ts"
import * as Webhooks from "./webhooks/index.ts"
import * as Receipts from "./receipts/index.ts"
import * as Profile from "./profile/index.ts"
import * as Tax from "./tax/index.ts"
import * as TaxForms from "./taxforms/index.ts"
import * as Payroll from "./payroll/index.ts"
import * as Mileage from "./mileage/index.ts"
import * as EstimatedTaxes from "./estimated-taxes/index.ts"
import * as Crypto from "./crypto/index.ts"
import * as Integrations from "./integrations/index.ts"
import * as Migrations from "./migrations/index.ts"
import * as AiApps from "./ai-apps/index.ts"
import * as AiConsent from "./ai-consent/index.ts"
import * as OnlinePayments from "./online-payments/index.ts"
import * as Billing from "./billing/index.ts"

export interface Options {
  readonly storage: "postgresql" | "pglite"
  /** Off for embedding and benchmarks; on for servers. */
  readonly rateLimits?: boolean
  /** A seed makes ids and secrets repeatable (tests only). */
  readonly seed?: number
  /**
   * The clock every request reads its time from (keys' expiry, rotation overlaps, rate limits,
   * `RequestContext.now`); the default is the system clock. Tests and the testkit pass a clock
   * they move.
   */
  readonly clock?: Clock.Clock
  /** Record spans for each request (default off: see EngineInfo.tracing). */
  readonly tracing?: boolean
  /**
   * Commit concurrent journal-entry postings together (default on: GroupCommit.ts). Off makes
   * every write its own transaction (the equivalence test runs both).
   */
  readonly groupCommit?: boolean
  /** Where clients reach the API (EngineInfo.publicBaseUrl). */
  readonly publicBaseUrl?: string | undefined
  /** Reads at once, queued and how long queued, per process (pipeline/shedding/ReadGate.ts); default `ReadGate.unbounded` (`ledger serve` sets `ReadGate.defaults` or LEDGER_READS_*). */
  readonly readAdmission?: ReadGate.Limits
}

/**
 * THE COMPOSITION ROOT: every area of the engine, in order (setup steps and account protections
 * run in this order). An area adds ONE line here; everything else it adds is in its own folder,
 * declared in the `Area` its index.ts exports (pipeline/Area.ts).
 */
export const areas: ReadonlyArray<Area.Area> = [
  Administration.area,
  Ledger.area,
  Sales.area,
  Banking.area,
  Reports.area,
  Firms.area,
  Auth.area,
  Webhooks.area,
  Receipts.area,
  Profile.area,
  Tax.area,
  TaxForms.area,
  Payroll.area,
  Mileage.area,
  EstimatedTaxes.area,
  Crypto.area,
  Integrations.area,
  Migrations.area,
  AiApps.area,
  AiConsent.area,
  OnlinePayments.area,
  Billing.area
]

const folded = Area.fold(areas)

/** Every operation's handler, by operation id (what the Dispatcher serves). */
export const handlers = folded.handlers

/** Every job kind the areas declare, by name: what the server's workers run. */
export const jobKinds = folded.jobKinds

/**
 * The areas' credential strategies by door (Authenticate.ts): what the Dispatcher authenticates
 * with, and what HTTP and MCP ask of a token's form before reading a body.
 */
export const credentials = Authenticate.doorsOf(folded.credentialStrategies)

/** The operations whose writes commit in groups, with their batch writers: new ones for each engine. */
const batchWriters = () => new Map([...folded.batchWriters].map(([operationId, make]) => [operationId, make()] as const))

/**
 * The engine: every operation behind one `Dispatcher`, over whatever `SqlClient` and outside ports
 * (ports/Ports.ts: an adapter, a fake or the unconfigured layer of each) are provided. Servers put
 * HTTP and MCP in front of it; embedders call it directly.
 */
export const layer = (options: Options): Layer.Layer<Dispatcher | Area.EngineServices, never, SqlClient.SqlClient | Ports.Engine> => {
  const entropy = options.seed === undefined ? Entropy.layer : Entropy.layerSeeded(options.seed)
  // Kept in the layer's output for the workers' jobs (Area.JobServices): the same instances the handlers use.
  const engineServices = Layer.mergeAll(
    Registry.layer(folded),
    Layer.succeed(EngineInfo)(EngineInfo.of({
      storage: options.storage,
      version,
      tracing: options.tracing ?? false,
      publicBaseUrl: options.publicBaseUrl ?? null
    }))
  ).pipe(Layer.provideMerge(entropy))
  return Dispatcher.layer.pipe(
    Layer.provide(Layer.mergeAll(
      Layer.succeed(Handlers)(folded.handlers),
      Layer.succeed(Authenticate.Credentials)(credentials),
      options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock)(options.clock),
      options.rateLimits === false ? RateLimiter.layerUnlimited : RateLimiter.layer,
      options.groupCommit === false ? GroupCommit.layerOff : GroupCommit.layer(batchWriters),
      Layer.succeed(ReadGate.ReadLimits)(options.readAdmission ?? ReadGate.unbounded)
    )),
    Layer.provideMerge(engineServices)
  )
}

/** Calls one operation as an embedding program would: no HTTP, the same rules. */
export const call = (
  operationId: string,
  input: {
    readonly credential: string | null
    readonly path?: Record<string, unknown>
    readonly query?: Record<string, unknown>
    readonly body?: unknown
    readonly idempotencyKey?: string
    readonly agentModel?: string
    readonly agentRunId?: string
    readonly company?: string
  }
) =>
  Effect.flatMap(Dispatcher, (dispatcher) =>
    dispatcher.execute({
      operationId,
      path: input.path ?? {},
      query: input.query ?? {},
      body: input.body,
      credential: input.credential,
      idempotencyKey: input.idempotencyKey ?? null,
      agentModel: input.agentModel ?? null,
      agentRunId: input.agentRunId ?? null,
      company: input.company ?? null,
      via: "engine",
      coerce: false
    } satisfies Invocation))
