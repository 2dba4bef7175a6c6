import * as ReportChart from "./ReportChart.ts"
import * as Totals from "./Totals.ts"

/**
 * The columns of a report: one total column, and with `by_class` one more per class (named, in
 * name order) and one for the lines without a class (last). A class gets a column when it has
 * lines in the report's ranges.
 */

export interface Columns {
  readonly byClass: boolean
  /** The class columns in order; empty without by_class. */
  readonly classKeys: ReadonlyArray<Totals.ColumnKey>
  /** The class name of a column; null for the lines without a class. */
  readonly nameOf: (key: Totals.ColumnKey) => string | null
}

/**
 * The columns of `sums` and the sums with their total column: with by_class the total is the
 * class columns added up, so it equals the report without classes.
 */
export const of = (
  chart: ReportChart.Chart,
  selection: Totals.Selection,
  sums: Totals.Sums,
  rangeCount: number
): { readonly columns: Columns; readonly sums: Totals.Sums } => {
  const nameOf = (key: Totals.ColumnKey): string | null =>
    key === Totals.noClassColumn || key === Totals.allColumn ? null : chart.classes.get(Number(key)) ?? null
  if (selection._tag !== "ByClass") return { columns: { byClass: false, classKeys: [], nameOf }, sums }
  const classKeys = Array.from(sums.keys())
    .filter((key) => key !== Totals.noClassColumn)
    .sort((left, right) => ReportChart.compareCodes(nameOf(left) ?? "", nameOf(right) ?? ""))
  if (sums.has(Totals.noClassColumn)) classKeys.push(Totals.noClassColumn)
  const total = new Map<number, ReadonlyArray<Totals.Totals>>()
  for (const column of sums.values()) {
    for (const [accountId, totals] of column) {
      const before = total.get(accountId) ?? Array.from({ length: rangeCount }, () => Totals.zero)
      total.set(accountId, before.map((value, index) => Totals.plus(value, totals[index]!)))
    }
  }
  const withTotal = new Map(sums)
  withTotal.set(Totals.allColumn, total)
  return { columns: { byClass: true, classKeys, nameOf }, sums: withTotal }
}

/** Every column's key: the total first, then the class columns. */
export const keys = (columns: Columns): ReadonlyArray<Totals.ColumnKey> => [Totals.allColumn, ...columns.classKeys]

/** A figure per class column, as reports show it (`by_class`). */
export const classAmounts = (columns: Columns, valueOf: (key: Totals.ColumnKey) => number) =>
  columns.classKeys.map((key) => ({ class: columns.nameOf(key), amount_cents: valueOf(key) }))

/** The fields a report adds for its class selection: `class` or `classes`. */
export const header = (columns: Columns, selection: Totals.Selection, chart: ReportChart.Chart) =>
  selection._tag === "Class"
    ? { class: selection.classId === null ? null : chart.classes.get(selection.classId) ?? null }
    : columns.byClass
    ? { classes: columns.classKeys.map(columns.nameOf) }
    : {}
