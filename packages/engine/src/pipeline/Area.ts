import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Event, Operation } from "@ledger/api"
import type { Handler } from "../kernel/Handler.ts"
import type {
  ContactLookup,
  Contributions,
  PostingLimit,
  ProposalKind,
  ProtectionCheck,
  RefusalLog,
  ReversalHook,
  SetupStep,
  WriteGuard
} from "../kernel/Registry.ts"
import type { Job } from "../store/Jobs.ts"
import type { EngineInfo } from "../kernel/EngineInfo.ts"
import type { Registry } from "../kernel/Registry.ts"
import type { Entropy } from "../ports/Entropy.ts"
import type { Mail } from "../ports/Mail.ts"
import type * as Ports from "../ports/Ports.ts"
import type { CredentialStrategy } from "./authenticate/Credential.ts"
import type { BatchWriter } from "./batching/GroupCommit.ts"
import type { EventType } from "./Outbox.ts"

export type {
  ContactLookup,
  Contributions,
  PostingLimit,
  PostingLimitInput,
  ProposalKind,
  ProtectedAccount,
  ProtectionCheck,
  RefusalLog,
  ReversalHook,
  SetupRequest,
  SetupResult,
  SetupStep,
  WriteGuard
} from "../kernel/Registry.ts"
export { exists, proposalKind, Registry } from "../kernel/Registry.ts"

/** What one run of a background job came to (the server's workers record it). */
export type JobOutcome =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Retry"; readonly error: string }
  | { readonly _tag: "GiveUp"; readonly error: string }

/**
 * The engine's own services a handler has beside its request (the registry of the areas'
 * contributions, randomness, deployment facts): the engine layer keeps them in its context too,
 * so a job that writes through the governed path (a scheduled integration sync) has what a
 * handler has, with a request context it makes itself.
 */
export type EngineServices = Registry | Entropy | EngineInfo

/** What a job may use: the database (no request transaction), every port the server provides, and the engine's services. */
export type JobServices = SqlClient.SqlClient | Mail | Ports.Engine | EngineServices

/** A kind of background job (store/Jobs.ts): how the workers run it. */
export interface JobKind {
  readonly run: (job: Job) => Effect.Effect<JobOutcome, never, JobServices>
  /** The job has failed for good: record it where people see it (an email marked failed). */
  readonly gaveUp?: ((job: Job, error: string) => Effect.Effect<void, never, JobServices>) | undefined
  /**
   * A periodic job (one per deployment, no company): the workers keep exactly one waiting and
   * enqueue the next once this one has run.
   */
  readonly periodic?: boolean | undefined
  /** A periodic job's own spacing between runs (default: the workers' `reminderScanSeconds`). */
  readonly everySeconds?: number | undefined
}

/**
 * An area (administration, ledger, sales, banking, reports, ...) as the engine sees it: one value
 * each area exports from its `index.ts` (`export const area = Area.make({...})`), folded by the
 * composition root (Engine.ts) into the Dispatcher's handlers and the `Registry`. Everything an
 * area adds to what other areas do (a proposal kind the ledger finishes, an account the ledger may
 * not deactivate, a step of company creation, a background job) is declared here, so no area
 * imports another to register itself and adding an area touches its own folders only.
 */

export interface Area<Id extends string = string> {
  /** The area's folder name in api, engine, tests and docs. */
  readonly name: string
  /** Every operation the area declares, by operation id. */
  readonly handlers: { readonly [K in Id]: Handler }
  /** Proposal kinds by `kind` (a proposal's `kind`, a posted entry's `source.kind`). */
  readonly proposalKinds: Readonly<Record<string, ProposalKind>>
  readonly protections: ReadonlyArray<ProtectionCheck>
  /** Run in the order of the areas, then in this order. */
  readonly setupSteps: ReadonlyArray<SetupStep>
  /** Run when any entry is reversed, in the reversal's transaction (kernel/Registry.ts). */
  readonly reversalHooks: ReadonlyArray<ReversalHook>
  /** Bounds on agents' postings beyond their threshold, asked by the governed write path (kernel/Registry.ts). */
  readonly postingLimits: ReadonlyArray<PostingLimit>
  /** Refusals of a company's writes before their handler, asked by the pipeline (kernel/Registry.ts). */
  readonly writeGuards: ReadonlyArray<WriteGuard>
  /** Answers which contact ids are a company's, for areas that may not read its table (kernel/Registry.ts). */
  readonly contactLookups: ReadonlyArray<ContactLookup>
  /**
   * The credentials it owns the tables of, each a strategy of one of the pipeline's doors with its
   * order there (pipeline/authenticate/Credential.ts): the pipeline tries them, it imports no area.
   */
  readonly credentialStrategies: ReadonlyArray<CredentialStrategy>
  /** Logs besides the company's that keep some refusals, written by the pipeline (kernel/Registry.ts). */
  readonly refusalLogs: ReadonlyArray<RefusalLog>
  /** Job kinds by name (`jobs.kind`). */
  readonly jobKinds: Readonly<Record<string, JobKind>>
  /**
   * The operations whose writes may commit in groups (pipeline/batching/GroupCommit.ts), each with
   * a maker: a writer may remember things between its batches, for one engine only.
   */
  readonly batchWriters: { readonly [K in Id]?: () => BatchWriter }
  /**
   * The event types its changes emit: the names of its contract's declarations
   * (`packages/api/src/<area>/Events.ts`, ADR 2010), which the outbox and webhooks read.
   */
  readonly events: ReadonlyArray<EventType>
}

/** An area's event declarations (its api folder's `events`): only types the contract's catalog gathers. */
export type EventDeclarations = { readonly [K in EventType]?: Event.Declaration }

type IdOf<Operations extends ReadonlyArray<Operation.Any>> = Operations[number]["id"]

/** A compile error naming the declared operations that have no handler. */
type Exhaustive<Declared extends string, Handled extends string> = [Exclude<Declared, Handled>] extends [never] ? unknown
  : { readonly missingHandlers: Exclude<Declared, Handled> }

/**
 * Declares an area from its api area's `operations` and its handlers (`Handler.make` pairs): an
 * operation declared without a handler fails the type check, a handler of an operation the area
 * does not declare too.
 */
export const make = <
  const Operations extends ReadonlyArray<Operation.Any>,
  const Pairs extends ReadonlyArray<readonly [IdOf<Operations>, Handler]>,
  const Elsewhere extends ReadonlyArray<IdOf<Operations>> = readonly []
>(area: {
  readonly name: string
  readonly operations: Operations
  readonly handlers: Pairs & Exhaustive<IdOf<Operations>, Pairs[number][0] | Elsewhere[number]>
  /** Operations the server answers itself, not the Dispatcher (the OpenAPI document, MCP). */
  readonly servedByTheServer?: Elsewhere
  readonly proposalKinds?: Readonly<Record<string, ProposalKind>>
  readonly protections?: ReadonlyArray<ProtectionCheck>
  readonly setupSteps?: ReadonlyArray<SetupStep>
  readonly reversalHooks?: ReadonlyArray<ReversalHook>
  readonly postingLimits?: ReadonlyArray<PostingLimit>
  readonly writeGuards?: ReadonlyArray<WriteGuard>
  readonly contactLookups?: ReadonlyArray<ContactLookup>
  readonly credentialStrategies?: ReadonlyArray<CredentialStrategy>
  readonly refusalLogs?: ReadonlyArray<RefusalLog>
  readonly jobKinds?: Readonly<Record<string, JobKind>>
  readonly batchWriters?: { readonly [K in IdOf<Operations>]?: () => BatchWriter }
  /** The area's contract `events` (`Api.<Area>.events`), never a list of its own. */
  readonly events?: EventDeclarations
}): Area<Exclude<IdOf<Operations>, Elsewhere[number]>> => {
  const handlers = Object.fromEntries(area.handlers) as { readonly [K in Exclude<IdOf<Operations>, Elsewhere[number]>]: Handler }
  // The type check above sees the ids; this sees a pair given twice, which a spread can hide.
  if (Object.keys(handlers).length !== area.handlers.length) {
    throw new Error(`Area ${area.name} gives an operation two handlers`)
  }
  return {
    name: area.name,
    handlers,
    proposalKinds: area.proposalKinds ?? {},
    protections: area.protections ?? [],
    setupSteps: area.setupSteps ?? [],
    reversalHooks: area.reversalHooks ?? [],
    postingLimits: area.postingLimits ?? [],
    writeGuards: area.writeGuards ?? [],
    contactLookups: area.contactLookups ?? [],
    credentialStrategies: area.credentialStrategies ?? [],
    refusalLogs: area.refusalLogs ?? [],
    jobKinds: area.jobKinds ?? {},
    batchWriters: (area.batchWriters ?? {}) as Area<Exclude<IdOf<Operations>, Elsewhere[number]>>["batchWriters"],
    events: Object.keys(area.events ?? {}) as Array<EventType>
  }
}

/** The engine's areas folded: the Dispatcher's handlers, the Registry's contributions, the batch writers. */
export interface Folded extends Contributions {
  readonly handlers: ReadonlyMap<string, Handler>
  readonly jobKinds: ReadonlyMap<string, JobKind>
  readonly batchWriters: ReadonlyMap<string, () => BatchWriter>
  /** Every area's credential strategies, in the order of the areas (the pipeline orders them by door). */
  readonly credentialStrategies: ReadonlyArray<CredentialStrategy>
  /** Each event type by the area that emits it. */
  readonly events: ReadonlyMap<EventType, string>
}

/** Adds each area's contributions in order; a name given by two areas is a programmer error. */
export const fold = (areas: ReadonlyArray<Area>): Folded => {
  const names = new Set<string>()
  for (const area of areas) {
    if (names.has(area.name)) throw new Error(`Area ${area.name} is folded twice`)
    names.add(area.name)
  }
  const byName = <A>(what: string, entries: (area: Area) => Iterable<readonly [string, A]>) => {
    const into = new Map<string, A>()
    for (const area of areas) {
      for (const [name, value] of entries(area)) {
        if (into.has(name)) throw new Error(`${what} ${name} of area ${area.name} is registered twice`)
        into.set(name, value)
      }
    }
    return into
  }
  return {
    handlers: byName("Operation", (area) => Object.entries(area.handlers)),
    proposalKinds: byName("Proposal kind", (area) => Object.entries(area.proposalKinds)),
    protections: areas.flatMap((area) => area.protections),
    setupSteps: areas.flatMap((area) => area.setupSteps),
    reversalHooks: areas.flatMap((area) => area.reversalHooks),
    postingLimits: areas.flatMap((area) => area.postingLimits),
    writeGuards: areas.flatMap((area) => area.writeGuards),
    contactLookups: areas.flatMap((area) => area.contactLookups),
    credentialStrategies: areas.flatMap((area) => area.credentialStrategies),
    refusalLogs: areas.flatMap((area) => area.refusalLogs),
    jobKinds: byName("Job kind", (area) => Object.entries(area.jobKinds)),
    batchWriters: byName("Batch writer", (area) =>
      Object.entries(area.batchWriters).flatMap(([id, make]) => make === undefined ? [] : [[id, make] as const])),
    events: byName("Event", (area) => area.events.map((type) => [type, area.name] as const)) as ReadonlyMap<EventType, string>
  }
}
