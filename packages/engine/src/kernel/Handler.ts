import { Effect, type Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { ApiError, Operation } from "@ledger/api"
import type { Entropy } from "../ports/Entropy.ts"
import type { Engine as Ports } from "../ports/Ports.ts"
import type { EngineInfo } from "./EngineInfo.ts"
import type { Registry } from "./Registry.ts"
import type { RequestContext } from "./RequestContext.ts"

/** What a handler tells the pipeline to write into the audit event of its change (pipeline/Audit.ts). */
export interface AuditNote {
  readonly targetType?: string
  readonly targetId?: string | number
  readonly reason?: string | null
  readonly details?: Record<string, unknown>
  /** Another company whose log must also carry the event (an operator acting on a company). */
  readonly companyId?: string
}

export interface Result {
  /** Defaults to the operation's main success status. */
  readonly status?: number
  readonly body: unknown
  /** What the audit event of this change should say beyond who and which operation. */
  readonly audit?: AuditNote
}

/**
 * What a handler may use: the database (inside the request's transaction), the request,
 * randomness, the deployment, what the areas registered, and the outside ports (ports/Ports.ts).
 */
export type Services = SqlClient.SqlClient | RequestContext | Entropy | EngineInfo | Registry | Ports

export interface Input<P = unknown, Q = unknown, B = unknown> {
  readonly path: P
  readonly query: Q
  readonly body: B
}

export type Handler = ((input: Input<any, any, any>) => Effect.Effect<Result, ApiError.LedgerError, Services>) & {
  /** Set by `makeInSteps`: the write's steps, run outside the request's transaction. */
  readonly inSteps?: Steps<Input<any, any, any>>
}

/**
 * A write in steps (docs/decisions/0408): the outer Effect runs outside any transaction and
 * commits what it writes in short transactions of its own, so a long write (a statement import)
 * never holds the database (PGlite's one connection) from its first line to its last; it returns
 * the write's last step, which the pipeline runs as any write's one transaction, with the audit
 * event, the outbox events and the idempotency record. A retry under the same key after a crash
 * must finish the work the earlier steps committed, not do it twice: that is the handler's part.
 */
export type Steps<I> = (
  input: I
) => Effect.Effect<Effect.Effect<Result, ApiError.LedgerError, Services>, ApiError.LedgerError, Services>

type TypeOf<S> = S extends Schema.Top ? S["Type"] : never

/** Declares the handler of one operation, typed by the operation's schemas. */
export const make = <O extends Operation.Any>(
  operation: O,
  handler: (
    input: Input<TypeOf<O["pathParams"]>, TypeOf<O["query"]>, TypeOf<O["body"]>>
  ) => Effect.Effect<Result, ApiError.LedgerError, Services>
): readonly [O["id"], Handler] => [operation.id, handler as Handler]

/**
 * Declares the handler of a write in steps (`Steps`). Called as a plain handler (a read path, a
 * caller below the pipeline), its steps run one after the other in the caller's transaction.
 */
export const makeInSteps = <O extends Operation.Any>(
  operation: O,
  steps: Steps<Input<TypeOf<O["pathParams"]>, TypeOf<O["query"]>, TypeOf<O["body"]>>>
): readonly [O["id"], Handler] => {
  const whole = (input: Input<any, any, any>) => Effect.flatten(steps(input))
  return [operation.id, Object.assign(whole, { inSteps: steps as Steps<Input<any, any, any>> })]
}
