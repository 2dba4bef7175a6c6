import { Effect, Exit, Cause } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi, Ledger, type Operation, Scope } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { area as ledger } from "../ledger/index.ts"
import * as Audit from "../pipeline/Audit.ts"
import { successStatus } from "../pipeline/Execution.ts"
import { capped, unreachable } from "../pipeline/authenticate/FirmPrincipal.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"

/**
 * Work across clients (spec 4.3): each item runs in its company as the caller, with the grant as
 * its ceiling, through the ledger's own handler (a period's status, a proposal's decision), so
 * every company rule applies exactly as to a single request; audited in that company's log. Each
 * item runs in a savepoint of the batch's transaction: one that fails is rolled back alone and
 * never blocks the others; a dry run rolls every item back and reports what would have happened.
 */

const { Work } = FirmsApi

interface ItemResult {
  readonly company_id: string
  readonly proposal_id?: number
  readonly ok: boolean
  readonly status: number
  readonly result?: unknown
  readonly error?: unknown
}

/** A dry run's item succeeded: its savepoint is rolled back with its answer. */
class Preview {
  readonly _tag = "Preview"
  constructor(readonly result: Handler.Result) {}
}

/** The caller as it acts in one client: its scopes under the grant's, or unreachable without a live grant. */
const actorIn = Effect.fn("FirmBatch.actorIn")(function*(actor: Actor, firmId: number, companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT scopes FROM firm_grants WHERE company_id = ${companyId}
    AND firm_id = ${firmId} AND revoked_at IS NULL`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(unreachable())
  return { ...actor, companyId, scopes: capped(actor.scopes, Row.textArray<Scope.Scope>(rows[0].scopes)) } satisfies Actor
})

/**
 * Runs one item: `work` in the client as the caller, needing `scope` there, in a savepoint, with its
 * audit event in the client's log and its events for the client's webhooks.
 */
const runItem = Effect.fn("FirmBatch.runItem")(function*(input: {
  readonly companyId: string
  readonly operation: Operation.Any
  readonly scope: Scope.Scope
  readonly dryRun: boolean
  readonly work: Effect.Effect<Handler.Result, ApiError.LedgerError, Handler.Services>
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const outer = yield* Effect.serviceOption(Outbox.Pending)
  const events: Array<Outbox.PendingEvent> = []
  const firmId = request.actor.firmId
  if (firmId === null) return yield* Effect.fail(ApiError.fail("unauthorized", "A firm credential is required."))
  const item = Effect.gen(function*() {
    const actor = yield* actorIn(request.actor, firmId, input.companyId)
    if (!Scope.satisfies(actor.scopes, input.scope)) {
      return yield* Effect.fail(ApiError.fail("insufficient_scope", `This needs the ${input.scope} scope in this company.`, { required_scope: input.scope }))
    }
    const inner = { ...request, actor, companyId: input.companyId, operationId: input.operation.id }
    const result = yield* input.work.pipe(Effect.provideService(RequestContext, inner), Effect.provideService(Outbox.Pending, events))
    if (input.dryRun) return yield* Effect.fail(new Preview(result))
    const status = result.status ?? successStatus(input.operation)
    const audit = Audit.ofWrite(inner, status, { ...result.audit, details: { ...result.audit?.details, batch: request.operationId } })
    if (audit !== null) yield* Audit.record(audit)
    return result
  })
  const exit = yield* Effect.exit(sql.withTransaction(item))
  if (Exit.isSuccess(exit)) {
    if (outer._tag === "Some") outer.value.push(...events)
    return { ok: true, status: exit.value.status ?? successStatus(input.operation), result: exit.value.body }
  }
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "Some" && failure.value instanceof Preview) {
    return { ok: true, status: 200, result: failure.value.result.body }
  }
  if (failure._tag === "Some" && failure.value instanceof ApiError.LedgerError) {
    return { ok: false, status: failure.value.status, error: failure.value.toBody().error }
  }
  return yield* Effect.failCause(exit.cause as Cause.Cause<never>)
})

const summary = (dryRun: boolean, results: ReadonlyArray<ItemResult>) => ({
  dry_run: dryRun,
  succeeded: results.filter((result) => result.ok).length,
  failed: results.filter((result) => !result.ok).length,
  results
})

const periodContaining = Effect.fn("FirmBatch.periodContaining")(function*(companyId: string, date: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`SELECT id FROM periods WHERE company_id = ${companyId} AND start_date <= ${date}
    AND end_date >= ${date}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.fail("period_not_found", `No period contains ${date}.`))
  return Row.int(rows[0].id)
})

/** The ledger's own handler of a single-company operation, run here for each item. */
const handlerOf = (operation: Operation.Any) => ledger.handlers[operation.id as keyof typeof ledger.handlers]

const setPeriodStatus: Operation.Any = Ledger.Periods.setPeriodStatus
const approveProposal: Operation.Any = Ledger.Proposals.approveProposal
const rejectProposal: Operation.Any = Ledger.Proposals.rejectProposal

export const handlers = [
  Handler.make(Work.lockClientPeriods, ({ body }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(Work.lockClientPeriods)
      const dryRun = body.dry_run === true
      const results: Array<ItemResult> = []
      for (const companyId of Array.from(new Set(body.company_ids))) {
        const outcome = yield* runItem({
          companyId,
          operation: setPeriodStatus,
          scope: Work.lockClientPeriods.scope,
          dryRun,
          work: Effect.flatMap(periodContaining(companyId, body.date), (id) =>
            handlerOf(setPeriodStatus)({ path: { id }, query: {}, body: { status: body.status, reason: body.reason } }))
        })
        results.push({ company_id: companyId, ...outcome })
      }
      if (!dryRun) {
        yield* FirmAudit.append(caller.firmId, {
          action: "lockClientPeriods",
          reason: body.reason,
          details: { date: body.date, status: body.status, results: results.map((result) => ({ company_id: result.company_id, ok: result.ok, status: result.status })) }
        })
      }
      return { body: summary(dryRun, results) }
    })),

  Handler.make(Work.decideFirmProposals, ({ body }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(Work.decideFirmProposals)
      if (body.decision === "reject" && body.reason === undefined) {
        return yield* Effect.fail(ApiError.validationFailed("A rejection needs a reason.", [{ path: ["body", "reason"], message: "Required to reject" }]))
      }
      const dryRun = body.dry_run === true
      const operation = body.decision === "approve" ? approveProposal : rejectProposal
      const results: Array<ItemResult> = []
      for (const item of body.items) {
        const outcome = yield* runItem({
          companyId: item.company_id,
          operation,
          scope: Work.decideFirmProposals.scope,
          dryRun,
          work: handlerOf(operation)({
            path: { id: item.proposal_id },
            query: {},
            body: body.reason === undefined ? {} : { reason: body.reason }
          })
        })
        results.push({ company_id: item.company_id, proposal_id: item.proposal_id, ...outcome })
      }
      if (!dryRun) {
        yield* FirmAudit.append(caller.firmId, {
          action: "decideFirmProposals",
          reason: body.reason ?? null,
          details: { decision: body.decision, results: results.map((result) => ({ company_id: result.company_id, proposal_id: result.proposal_id, ok: result.ok, status: result.status })) }
        })
      }
      return { body: summary(dryRun, results) }
    }))
] as const
