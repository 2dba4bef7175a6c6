import * as ReportChart from "./ReportChart.ts"
import * as TotalsStore from "./TotalsStore.ts"

/**
 * The columns of a report: one total column, and with `by_class` one more per class (named, in
 * name order) and one for the lines without a class (last). A class gets a column when it has
 * lines in the report's ranges.
 */

export interface Columns {
  readonly byClass: boolean
  /** The class columns in order; empty without by_class. */
  readonly classKeys: ReadonlyArray<TotalsStore.ColumnKey>
  /** The class name of a column; null for the lines without a class. */
  readonly nameOf: (key: TotalsStore.ColumnKey) => string | null
}

/**
 * The columns of `sums` and the sums with their total column: with by_class the total is the
 * class columns added up, so it equals the report without classes.
 */
export const of = (
  chart: ReportChart.Chart,
  selection: TotalsStore.Selection,
  sums: TotalsStore.Sums,
  rangeCount: number
): { readonly columns: Columns; readonly sums: TotalsStore.Sums } => {
  const nameOf = (key: TotalsStore.ColumnKey): string | null =>
    key === TotalsStore.noClassColumn || key === TotalsStore.allColumn ? null : chart.classes.get(Number(key)) ?? null
  if (selection._tag !== "ByClass") return { columns: { byClass: false, classKeys: [], nameOf }, sums }
  const classKeys = Array.from(sums.keys())
    .filter((key) => key !== TotalsStore.noClassColumn)
    .sort((left, right) => ReportChart.compareCodes(nameOf(left) ?? "", nameOf(right) ?? ""))
  if (sums.has(TotalsStore.noClassColumn)) classKeys.push(TotalsStore.noClassColumn)
  const total = new Map<number, ReadonlyArray<TotalsStore.Totals>>()
  for (const column of sums.values()) {
    for (const [accountId, totals] of column) {
      const before = total.get(accountId) ?? Array.from({ length: rangeCount }, () => TotalsStore.zero)
      total.set(accountId, before.map((value, index) => TotalsStore.plus(value, totals[index]!)))
    }
  }
  const withTotal = new Map(sums)
  withTotal.set(TotalsStore.allColumn, total)
  return { columns: { byClass: true, classKeys, nameOf }, sums: withTotal }
}

/** Every column's key: the total first, then the class columns. */
export const keys = (columns: Columns): ReadonlyArray<TotalsStore.ColumnKey> => [TotalsStore.allColumn, ...columns.classKeys]

/** A figure per class column, as reports show it (`by_class`). */
export const classAmounts = (columns: Columns, valueOf: (key: TotalsStore.ColumnKey) => number) =>
  columns.classKeys.map((key) => ({ class: columns.nameOf(key), amount_cents: valueOf(key) }))

/** The fields a report adds for its class selection: `class` or `classes`. */
export const header = (columns: Columns, selection: TotalsStore.Selection, chart: ReportChart.Chart) =>
  selection._tag === "Class"
    ? { class: selection.classId === null ? null : chart.classes.get(selection.classId) ?? null }
    : columns.byClass
    ? { classes: columns.classKeys.map(columns.nameOf) }
    : {}
