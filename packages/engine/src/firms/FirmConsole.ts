import { Effect } from "effect"
import { ApiError, Firms as FirmsApi, type Scope } from "@ledger/api"
import * as Cursor from "../kernel/Cursor.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { addDays } from "../kernel/values/Calendar.ts"
import * as FirmCloseStore from "./store/FirmCloseStore.ts"
import * as FirmConsoleStore from "./store/FirmConsoleStore.ts"
import * as FirmContext from "./FirmContext.ts"

/** The accountant's console, the proposal queue across clients and the close checklist (spec 4.3). */

const { Clients, Work, FirmLimits } = FirmsApi
const int = (value: unknown): number => Row.int(value ?? 0)
const dateOrNull = (value: unknown): string | null => value === null || value === undefined ? null : Row.date(value)

const clientStatus = (row: Record<string, unknown>, migration: "none" | "in_progress" | "done") => ({
  company_id: String(row.company_id),
  name: String(row.name),
  grant_id: Row.int(row.grant_id),
  scopes: Row.textArray<Scope.Scope>(row.scopes),
  billing: String(row.billing),
  bank: {
    accounts: int(row.bank_accounts),
    unmatched_lines: int(row.unmatched_lines),
    oldest_unmatched_date: dateOrNull(row.oldest_unmatched_date),
    last_reconciled_date: dateOrNull(row.last_reconciled_date)
  },
  proposals: { pending: int(row.pending), pending_cents: int(row.pending_cents), oldest_created_at: Row.isoOrNull(row.oldest_pending_at) },
  periods: { locked_through: dateOrNull(row.locked_through), open_before_as_of: int(row.open_before) },
  overdue_ar: { invoices: int(row.overdue_invoices), cents: int(row.overdue_cents) },
  last_activity_at: Row.isoOrNull(row.last_activity_at),
  migration: { state: migration },
  kill_switch_suspended: Boolean(row.kill_switch_suspended)
})

/** A proposal page's cursor: the last proposal's creation time and id (the queue's order). */
const proposalCursor = (cursor: string | undefined) =>
  Effect.flatMap(Cursor.decode(cursor), (text) => {
    if (text === null) return Effect.succeed(null)
    const [createdAt, id] = text.split("|")
    return createdAt !== undefined && id !== undefined && /^\d{1,15}$/.test(id) && !Number.isNaN(Date.parse(createdAt))
      ? Effect.succeed({ createdAt, id: Number(id) })
      : Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
  })


export const handlers = [
  Handler.make(Clients.listFirmClients, ({ query }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(Clients.listFirmClients)
      const asOf = query.as_of ?? request.today
      const limit = Math.min(Pagination.limitOf(query), FirmLimits.clientsReportedMax)
      const after = yield* Cursor.decode(query.cursor)
      const rows = yield* FirmConsoleStore.clients(caller.firmId, asOf, after, limit)
      const shown = rows.slice(0, limit)
      const migrations = yield* FirmConsoleStore.migrationStates(shown.map((row) => String(row.company_id)))
      const hasMore = rows.length > limit
      return {
        body: {
          as_of: asOf,
          data: shown.map((row) => clientStatus(row, migrations.get(String(row.company_id)) ?? "none")),
          has_more: hasMore,
          next_cursor: hasMore ? Cursor.encode(String(shown[shown.length - 1]!.company_id)) : null
        }
      }
    })),

  Handler.make(Work.listFirmProposals, ({ query }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(Work.listFirmProposals)
      const limit = Pagination.limitOf(query)
      const after = yield* proposalCursor(query.cursor)
      const rows = yield* FirmConsoleStore.proposals(caller.firmId, {
        after,
        companyId: query.company_id ?? null,
        agentId: query.agent_id ?? null,
        agentName: query.agent_name ?? null,
        minCents: query.min_cents ?? null,
        maxCents: query.max_cents ?? null,
        createdBefore: query.older_than_days === undefined ? null : new Date(Date.parse(request.now) - query.older_than_days * 86_400_000).toISOString(),
        limit
      })
      const nowMs = Date.parse(request.now)
      const data = rows.slice(0, limit).map((row) => ({
        company_id: String(row.company_id),
        company_name: String(row.company_name),
        proposal_id: Row.int(row.id),
        kind: String(row.kind),
        summary: String(row.summary),
        amount_cents: Row.int(row.amount_cents),
        entry_date: Row.date(row.entry_date),
        created_by_type: String(row.created_by_type),
        created_by_id: Row.intOrNull(row.created_by_id),
        created_by_name: row.created_by_name === null ? null : String(row.created_by_name),
        created_at: Row.iso(row.created_at),
        age_days: Math.floor((nowMs - Date.parse(Row.iso(row.created_at))) / 86_400_000),
        reasons: Row.json(row.reasons)
      }))
      const last = data[data.length - 1]
      const hasMore = rows.length > limit
      return {
        body: { data, has_more: hasMore, next_cursor: hasMore && last !== undefined ? Cursor.encode(`${last.created_at}|${last.proposal_id}`) : null }
      }
    })),

  Handler.make(Work.getFirmClose, ({ query }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(Work.getFirmClose)
      const date = query.date ?? request.today
      const unappliedDays = query.unapplied_days ?? FirmLimits.unappliedDaysDefault
      const limit = Math.min(Pagination.limitOf(query), FirmLimits.clientsReportedMax)
      const clients = yield* FirmConsoleStore.clients(caller.firmId, date, yield* Cursor.decode(query.cursor), limit)
      const shown = clients.slice(0, limit)
      const data = []
      for (const client of shown) {
        const companyId = String(client.company_id)
        const found = yield* FirmCloseStore.checklist(companyId, date, addDays(date, -unappliedDays))
        data.push(checklistOf(companyId, String(client.name), found))
      }
      const hasMore = clients.length > limit
      const next = hasMore ? Cursor.encode(String(shown[shown.length - 1]!.company_id)) : null
      return { body: { date, unapplied_days: unappliedDays, data, has_more: hasMore, next_cursor: next } }
    }))
] as const

const checklistOf = (companyId: string, name: string, found: Effect.Success<ReturnType<typeof FirmCloseStore.checklist>>) => {
  const { figures, period, banks } = found
  const unreconciled = banks
    .map((bank) => ({ bank_account_id: Row.int(bank.id), name: String(bank.name), last_reconciled_date: dateOrNull(bank.last_reconciled_date) }))
    .filter((bank) => bank.last_reconciled_date === null || bank.last_reconciled_date < found.end)
  const tie = {
    ar_ledger_cents: int(figures.ar_ledger),
    ar_open_documents_cents: int(figures.ar_documents),
    ap_ledger_cents: -int(figures.ap_ledger),
    ap_open_documents_cents: int(figures.ap_documents),
    ties: false
  }
  const ties = tie.ar_ledger_cents === tie.ar_open_documents_cents && tie.ap_ledger_cents === tie.ap_open_documents_cents
  const checklist = {
    company_id: companyId,
    name,
    period: period === null ? null : { id: Row.int(period.id), start_date: Row.date(period.start_date), end_date: Row.date(period.end_date), status: String(period.status) },
    unreconciled_bank_accounts: unreconciled,
    unposted_bank_lines: int(figures.unposted_bank_lines),
    unapplied_payments: { count: int(figures.unapplied_count), cents: int(figures.unapplied_cents) },
    open_proposals: int(figures.open_proposals),
    unlocked_prior_periods: int(figures.unlocked_prior),
    ar_ap_tie_out: { ...tie, ties }
  }
  const ready = unreconciled.length === 0 && checklist.unposted_bank_lines === 0 && checklist.unapplied_payments.count === 0 &&
    checklist.open_proposals === 0 && checklist.unlocked_prior_periods === 0 && ties
  return { ...checklist, ready }
}
