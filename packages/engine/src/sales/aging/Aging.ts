import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { Csv } from "../../reports/index.ts"
import * as Row from "../../kernel/Row.ts"
import * as ReadReplica from "../../store/ReadReplica.ts"
import * as AgingRules from "./AgingRules.ts"
import * as OpenBalanceStore from "../common/OpenBalanceStore.ts"
import { asOfOrToday } from "../common/Common.ts"

type Aging = typeof Sales.Aging.Aging.Type

const bucketsOf = (totals: AgingRules.Totals) => ({
  current_cents: totals.current,
  days_1_30_cents: totals.days_1_30,
  days_31_60_cents: totals.days_31_60,
  days_61_90_cents: totals.days_61_90,
  over_90_cents: totals.over_90,
  total_cents: totals.total
})

/**
 * AR or AP aging as of a date: each open invoice or bill in the bucket of its days past due, per
 * contact. Built from the same open balances as the contacts' figures, so the two always agree.
 * Read from the replica when one is fresh enough (store/ReadReplica.ts).
 */
const aging = (side: "sales" | "purchases", asOfQuery: string | undefined) =>
  Effect.flatMap(requireCompanyId, (company) => ReadReplica.onReplica(company, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const asOf = yield* asOfOrToday(asOfQuery)
    const documents = yield* OpenBalanceStore.openDocuments({ companyId: company, asOf, kinds: [side === "sales" ? "invoice" : "bill"] })
    const credits = yield* OpenBalanceStore.unappliedCredits({ companyId: company, asOf, side })
    const contactIds = Array.from(new Set([...documents.map((document) => document.contactId), ...credits.map((credit) => credit.contactId)]))
    const names = contactIds.length === 0
      ? []
      : yield* sql<{ id: unknown; name: string }>`SELECT id, name FROM contacts WHERE company_id = ${company} AND id IN ${sql.in(contactIds)}`
        .pipe(Effect.orDie)
    const nameOf = new Map(names.map((row) => [Row.int(row.id), row.name]))
    const rows = new Map<number, { totals: AgingRules.Totals; unapplied: number }>()
    const rowOf = (contactId: number) => {
      let row = rows.get(contactId)
      if (row === undefined) {
        row = { totals: AgingRules.emptyTotals(), unapplied: 0 }
        rows.set(contactId, row)
      }
      return row
    }
    const totals = AgingRules.emptyTotals()
    for (const document of documents) {
      const bucket = AgingRules.bucketOf(document.dueDate, asOf)
      AgingRules.add(rowOf(document.contactId).totals, bucket, document.openCents)
      AgingRules.add(totals, bucket, document.openCents)
    }
    for (const credit of credits) rowOf(credit.contactId).unapplied += credit.unappliedCents
    const report: Aging = {
      as_of: asOf,
      side: side === "sales" ? "receivables" : "payables",
      rows: [...rows.entries()]
        .map(([contactId, row]) => ({
          contact_id: contactId,
          name: nameOf.get(contactId) ?? "",
          ...bucketsOf(row.totals),
          unapplied_credit_cents: row.unapplied
        }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.contact_id - b.contact_id),
      totals: bucketsOf(totals)
    }
    return report
  })))

/** The aging as CSV in the reports' format: amounts as decimals, names safe from formulas. */
export const toCsv = (report: Aging): string =>
  Csv.render(
    ["contact_id", "name", "current", "1-30", "31-60", "61-90", "over 90", "total", "unapplied credit"],
    [
      ...report.rows.map((row) => [
        row.contact_id,
        row.name,
        Csv.cents(row.current_cents),
        Csv.cents(row.days_1_30_cents),
        Csv.cents(row.days_31_60_cents),
        Csv.cents(row.days_61_90_cents),
        Csv.cents(row.over_90_cents),
        Csv.cents(row.total_cents),
        Csv.cents(row.unapplied_credit_cents)
      ]),
      [
        null,
        "Total",
        Csv.cents(report.totals.current_cents),
        Csv.cents(report.totals.days_1_30_cents),
        Csv.cents(report.totals.days_31_60_cents),
        Csv.cents(report.totals.days_61_90_cents),
        Csv.cents(report.totals.over_90_cents),
        Csv.cents(report.totals.total_cents),
        null
      ]
    ]
  )

const respond = (side: "sales" | "purchases") => ({ query }: { query: { as_of?: string | undefined; format?: "json" | "csv" | undefined } }) =>
  Effect.map(aging(side, query.as_of), (report) => ({
    body: query.format === "csv" ? Csv.file(`${side === "sales" ? "ar" : "ap"}-aging-${report.as_of}.csv`, toCsv(report)) : report
  }))

export const handlers = [
  Handler.make(Sales.Aging.getArAging, respond("sales")),
  Handler.make(Sales.Aging.getApAging, respond("purchases"))
]
