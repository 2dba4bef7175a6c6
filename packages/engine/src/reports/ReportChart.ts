import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Reports } from "@ledger/api"
import type { Ledger } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import type * as Totals from "./TotalsStore.ts"

/**
 * The chart as the reports read it: every account (inactive ones too: they may still hold a
 * balance) in code order, the classes, and the roles accounts play in a report: which section of
 * the profit and loss, which account receives earlier years' earnings.
 */

export interface ReportAccount {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly type: Ledger.Records.AccountType
  readonly subtype: string | null
  readonly parentCode: string | null
}

export interface Chart {
  /** In code order (byte order, the same on every database). */
  readonly accounts: ReadonlyArray<ReportAccount>
  /** Class names by id. */
  readonly classes: ReadonlyMap<number, string>
}

export const load = Effect.fn("ReportChart.load")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const accountRows = yield* sql<Record<string, unknown>>`SELECT id, code, name, type, subtype, parent_code
    FROM accounts WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  const classRows = yield* sql<Record<string, unknown>>`SELECT id, name FROM classes WHERE company_id = ${companyId}`
    .pipe(Effect.orDie)
  const accounts = accountRows.map((row): ReportAccount => ({
    id: Row.int(row.id),
    code: String(row.code),
    name: String(row.name),
    type: row.type as ReportAccount["type"],
    subtype: row.subtype === null ? null : String(row.subtype),
    parentCode: row.parent_code === null ? null : String(row.parent_code)
  })).sort((left, right) => compareCodes(left.code, right.code))
  const classes = new Map(classRows.map((row) => [Row.int(row.id), String(row.name)]))
  return { accounts, classes } satisfies Chart
})

/** Byte order of ASCII codes, like COLLATE "C". */
export const compareCodes = (left: string, right: string): number => left < right ? -1 : left > right ? 1 : 0

export const isProfitAndLoss = (account: ReportAccount): boolean => account.type === "income" || account.type === "expense"

/**
 * The account that shows earlier fiscal years' net income: the lowest-coded equity account of
 * subtype `retained_earnings`, or none.
 */
export const retainedEarnings = (chart: Chart): ReportAccount | null =>
  chart.accounts.find((account) => account.type === "equity" && account.subtype === "retained_earnings") ?? null

export type ProfitAndLossSection = "income" | "cost_of_goods_sold" | "expenses"

const isCostOfSalesSubtype = (subtype: string | null): boolean => subtype !== null && subtype.startsWith("cost_of_")

/**
 * Where an income or expense account goes on the profit and loss: cost of goods sold when its
 * subtype, or a parent's, is a cost of sales (`cost_of_goods_sold`, `cost_of_services`, ...).
 */
export const profitAndLossSection = (account: ReportAccount, byCode: ReadonlyMap<string, ReportAccount>): ProfitAndLossSection => {
  if (account.type === "income") return "income"
  let current: ReportAccount | undefined = account
  // Parents never form a cycle (the ledger refuses it); the bound only guards against bad data.
  for (let depth = 0; current !== undefined && depth < 20; depth++) {
    if (isCostOfSalesSubtype(current.subtype)) return "cost_of_goods_sold"
    current = current.parentCode === null ? undefined : byCode.get(current.parentCode)
  }
  return "expenses"
}

/**
 * The lines a report sums, from its `class` and `by_class` query: both at once is refused; an
 * unknown class name is `unknown_class`.
 */
export const selection = (
  chart: Chart,
  query: { readonly class?: string | undefined; readonly by_class?: boolean | undefined }
): Effect.Effect<Totals.Selection, ApiError.LedgerError> => {
  if (query.class !== undefined && query.by_class === true) {
    return Effect.fail(ApiError.invalidRequest([{ path: ["query", "by_class"], message: "Ask for one class or a column per class, not both" }]))
  }
  if (query.by_class === true) return Effect.succeed({ _tag: "ByClass" })
  if (query.class === undefined) return Effect.succeed({ _tag: "All" })
  if (query.class === Reports.Shared.unclassified) return Effect.succeed({ _tag: "Class", classId: null })
  for (const [id, name] of chart.classes) if (name === query.class) return Effect.succeed({ _tag: "Class", classId: id })
  return Effect.fail(ApiError.fail("unknown_class", `There is no class named ${JSON.stringify(query.class)}.`, {
    issues: [{ path: ["query", "class"], message: `No class ${JSON.stringify(query.class)}` }]
  }))
}
