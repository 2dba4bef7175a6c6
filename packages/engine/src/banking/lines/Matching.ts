import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking, Limits } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { proposalKind } from "../../kernel/Registry.ts"
import * as Row from "../../kernel/Row.ts"
import { addDays } from "../../kernel/values/Calendar.ts"
import { Governed } from "../../ledger/index.ts"
import * as MatchingRules from "./MatchingRules.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as BankLineStore from "./BankLineStore.ts"

/**
 * Auto-match (spec 3.5): unmatched lines of a bank account to unlinked posted entries of exactly
 * their amount within the window (MatchingRules.decide), and optionally transfers between two of the
 * company's bank accounts, posted as one entry through the governed path (kind `bank_transfer`).
 */

/** What a queued transfer stores with its proposal: its two lines. */
const TransferRequest = Schema.Struct({ out_line_id: Schema.Number, in_line_id: Schema.Number })
type TransferRequest = typeof TransferRequest.Type

const lineOf = (row: Record<string, unknown>): MatchingRules.Line => ({
  id: Row.int(row.id),
  bankAccountId: Row.int(row.bank_account_id),
  date: Row.date(row.line_date),
  amountCents: Row.int(row.amount_cents)
})

const linkBoth = (request: TransferRequest, entryId: number) =>
  Effect.gen(function*() {
    const out = yield* BankLineStore.update(request.out_line_id, { status: "categorized", entry_id: entryId, proposal_id: null })
    const into = yield* BankLineStore.update(request.in_line_id, { status: "categorized", entry_id: entryId, proposal_id: null })
    return yield* BankLineStore.present([out, into])
  })

/** A person's decision on a queued transfer reaches both lines (kind `bank_transfer`). */
export const transferProposalKind = proposalKind({
  request: TransferRequest,
  // The entry leads to the transfer's outgoing line, as a transfer that posts directly does.
  sourceId: ({ request: input }) => Effect.succeed(input.out_line_id),
  approved: ({ proposal, request: input, entry }) =>
    Effect.gen(function*() {
      for (const id of [input.out_line_id, input.in_line_id]) {
        const line = yield* BankLineStore.lockLine(id)
        if (line.status !== "proposed" || Row.intOrNull(line.proposal_id) !== proposal.id) {
          return yield* Effect.fail(ApiError.fail("bank_line_state", "A bank line no longer waits for this proposal.", { bank_line_id: id }))
        }
      }
      return yield* linkBoth(input, entry.id)
    }),
  rejected: ({ proposal, request: input }) =>
    Effect.gen(function*() {
      for (const id of [input.out_line_id, input.in_line_id]) {
        const line = yield* BankLineStore.lockLine(id)
        if (line.status === "proposed" && Row.intOrNull(line.proposal_id) === proposal.id) {
          yield* BankLineStore.update(id, { status: "unmatched", proposal_id: null })
        }
      }
    })
})

type Transfer = typeof Banking.Records.MatchResult.Type["transfers"][number]
type Pair = { readonly out: MatchingRules.Line; readonly into: MatchingRules.Line }

/** The bank account's unmatched posted lines with an amount, locked unless it is a dry run. */
const unmatchedLines = (sql: SqlClient.SqlClient, companyId: string, bankAccountId: number, dryRun: boolean) =>
  sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${companyId}
    AND bank_account_id = ${bankAccountId} AND status = 'unmatched' AND NOT pending AND withdrawn_at IS NULL
    AND amount_cents <> 0 ORDER BY line_date, id ${dryRun ? sql`` : sql`FOR UPDATE`}`.pipe(Effect.orDie, Effect.map((rows) => rows.map(lineOf)))

/**
 * The entries the lines may match: posted on the bank's ledger account within the window of the
 * lines' dates, linked to none of its lines, neither reversed nor a reversal.
 */
const entryCandidates = (
  sql: SqlClient.SqlClient,
  companyId: string,
  bank: { readonly id: number; readonly accountId: number },
  lines: ReadonlyArray<MatchingRules.Line>,
  windowDays: number
) =>
  Effect.gen(function*() {
    if (lines.length === 0) return [] as Array<MatchingRules.Candidate>
    const from = addDays(lines.reduce((min, line) => (line.date < min ? line.date : min), lines[0]!.date), -windowDays)
    const to = addDays(lines.reduce((max, line) => (line.date > max ? line.date : max), lines[0]!.date), windowDays)
    const rows = yield* sql<Record<string, unknown>>`SELECT l.entry_id, e.entry_date, sum(l.amount_cents) AS effect
      FROM journal_lines l JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
      WHERE l.company_id = ${companyId} AND l.account_id = ${bank.accountId} AND e.entry_date BETWEEN ${from} AND ${to}
        AND NOT EXISTS (SELECT 1 FROM bank_lines b WHERE b.company_id = l.company_id AND b.bank_account_id = ${bank.id}
          AND b.entry_id = l.entry_id)
        AND NOT EXISTS (SELECT 1 FROM journal_entries r WHERE r.company_id = l.company_id AND r.reverses_entry_id = l.entry_id)
        AND e.reverses_entry_id IS NULL
      GROUP BY l.entry_id, e.entry_date HAVING sum(l.amount_cents) <> 0`.pipe(Effect.orDie)
    return rows.map((row): MatchingRules.Candidate => ({ entryId: Row.int(row.entry_id), date: Row.date(row.entry_date), amountCents: Row.int(row.effect) }))
  })

/**
 * Transfers touching the bank account among every account's unmatched lines (those just matched
 * left out), with each line's ledger account code.
 */
const transferPairs = (
  sql: SqlClient.SqlClient,
  companyId: string,
  bankAccountId: number,
  matchedIds: ReadonlySet<number>,
  windowDays: number
) =>
  Effect.gen(function*() {
    const others = yield* sql<Record<string, unknown>>`SELECT l.*, a.code AS account_code FROM bank_lines l
      JOIN bank_accounts b ON b.company_id = l.company_id AND b.id = l.bank_account_id
      JOIN accounts a ON a.company_id = b.company_id AND a.id = b.account_id
      WHERE l.company_id = ${companyId} AND l.status = 'unmatched' AND NOT l.pending AND l.withdrawn_at IS NULL
        AND l.amount_cents <> 0 ORDER BY l.line_date, l.id`.pipe(Effect.orDie)
    const codes = new Map(others.map((row) => [Row.int(row.id), String(row.account_code)]))
    const pool = others.map(lineOf).filter((line) => !matchedIds.has(line.id))
    const pairs = MatchingRules.pairTransfers(pool, windowDays)
      .filter((pair) => pair.out.bankAccountId === bankAccountId || pair.into.bankAccountId === bankAccountId)
    return { pairs, codes }
  })

/** Posts one transfer, or queues it for approval, through the governed path (kind `bank_transfer`). */
const writeTransfer = (pair: Pair, codes: ReadonlyMap<number, string>) =>
  Effect.gen(function*() {
    const size = pair.into.amountCents
    for (const id of [pair.out.id, pair.into.id]) yield* BankLineStore.lockLine(id)
    const request: TransferRequest = { out_line_id: pair.out.id, in_line_id: pair.into.id }
    const date = pair.out.date > pair.into.date ? pair.out.date : pair.into.date
    const written = yield* Governed.write({
      kind: "bank_transfer",
      summary: `Transfer of ${size} cents from ${codes.get(pair.out.id)} to ${codes.get(pair.into.id)} on ${date}`,
      entry: {
        date,
        memo: "Transfer between bank accounts",
        lines: [
          { account: codes.get(pair.into.id)!, debit_cents: size },
          { account: codes.get(pair.out.id)!, credit_cents: size }
        ]
      },
      request,
      dryRun: false,
      sourceId: pair.out.id,
      onPosted: (entry) => linkBoth(request, entry.id),
      onProposed: (proposal) =>
        Effect.forEach([pair.out.id, pair.into.id], (id) => BankLineStore.update(id, { status: "proposed", proposal_id: proposal.id }), {
          discard: true
        })
    })
    return {
      out_line_id: pair.out.id,
      in_line_id: pair.into.id,
      amount_cents: size,
      entry_id: written.outcome._tag === "Posted" ? written.outcome.entry.id : null,
      proposal_id: written.outcome._tag === "Queued" ? written.outcome.proposal.id : null
    } satisfies Transfer
  })

export const handlers = [
  Handler.make(Banking.BankAccounts.autoMatchBankLines, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const dryRun = body.dry_run === true
      const windowDays = body.window_days ?? Limits.autoMatchWindowDaysDefault
      const bank = yield* BankAccounts.load(path.id, dryRun ? "none" : "update")
      const lines = yield* unmatchedLines(sql, companyId, path.id, dryRun)
      const candidates = yield* entryCandidates(sql, companyId, { id: path.id, accountId: Row.int(bank.account_id) }, lines, windowDays)
      const decision = MatchingRules.decide(lines, candidates, windowDays)
      if (!dryRun) {
        for (const match of decision.matched) yield* BankLineStore.update(match.lineId, { status: "matched", entry_id: match.entryId })
      }

      const transfers: Array<Transfer> = []
      if (body.transfers === true) {
        const { pairs, codes } = yield* transferPairs(sql, companyId, path.id, new Set(decision.matched.map((match) => match.lineId)), windowDays)
        for (const pair of pairs) {
          transfers.push(dryRun
            ? { out_line_id: pair.out.id, in_line_id: pair.into.id, amount_cents: pair.into.amountCents, entry_id: null, proposal_id: null }
            : yield* writeTransfer(pair, codes))
        }
      }
      const touched = new Set([...decision.matched.map((match) => match.lineId)])
      const result = {
        dry_run: dryRun,
        matched: decision.matched.map((match) => ({ bank_line_id: match.lineId, entry_id: match.entryId })),
        transfers,
        ambiguous: decision.ambiguous.map((item) => ({ bank_line_id: item.lineId, candidate_entry_ids: item.entryIds })),
        unmatched: lines.filter((line) => !touched.has(line.id) && !transfers.some((pair) => pair.out_line_id === line.id || pair.in_line_id === line.id)).length
      }
      return {
        status: 200,
        body: result,
        audit: {
          targetType: "bank_account",
          targetId: path.id,
          details: { matched: result.matched.length, transfers: transfers.length, ambiguous: result.ambiguous.length, window_days: windowDays }
        }
      }
    }))
] as const
