import { type FormEvent, useState } from "react"
import { ledger, type Success } from "../api.ts"
import { formatCents } from "../money.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"
import { BarChart } from "./BarChart.tsx"

/**
 * Reports: the trial balance and the balance sheet at a date, profit and loss for a range
 * (`GET /v1/reports/…`). Amounts arrive as integer cents and are formatted by money.ts; the CSV
 * is the API's own file (`format=csv`), downloaded through a plain link with the session cookie.
 */

type Kind = "trial-balance" | "profit-and-loss" | "balance-sheet"

const kinds: ReadonlyArray<{ readonly value: Kind; readonly label: string }> = [
  { value: "trial-balance", label: "Trial balance" },
  { value: "profit-and-loss", label: "Profit and loss" },
  { value: "balance-sheet", label: "Balance sheet" }
]

type TrialBalance = Exclude<Success<"getTrialBalance">, CsvFile>
type ProfitAndLoss = Exclude<Success<"getProfitAndLoss">, CsvFile>
type BalanceSheet = Exclude<Success<"getBalanceSheet">, CsvFile>
/** The CSV envelope the report operations answer with `format=csv`, which this screen never asks for. */
type CsvFile = { readonly format: "csv" }
interface Section<R> { readonly rows: ReadonlyArray<R>; readonly total_cents: number }

type Shown =
  | { readonly kind: "trial-balance"; readonly report: TrialBalance; readonly query: string }
  | { readonly kind: "profit-and-loss"; readonly report: ProfitAndLoss; readonly query: string }
  | { readonly kind: "balance-sheet"; readonly report: BalanceSheet; readonly query: string }

const today = () => new Date().toISOString().slice(0, 10)
const account = (row: { readonly code: string | null; readonly name: string }) => `${row.code ?? ""} ${row.name}`.trim()

const SectionTable = <R extends { readonly code: string | null; readonly name: string }>(props: { readonly title: string; readonly section: Section<R>; readonly amount: (row: R) => number }) => (
  <table>
    <caption>{props.title}</caption>
    <thead><tr><th scope="col">Account</th><th scope="col" className="num">Amount</th></tr></thead>
    <tbody>
      {props.section.rows.length === 0 ? <tr><td colSpan={2}>No accounts with activity.</td></tr> : null}
      {props.section.rows.map((row, index) => <tr key={`${row.code}-${index}`}><td>{account(row)}</td><td className="num">{formatCents(props.amount(row))}</td></tr>)}
    </tbody>
    <tfoot><tr><th scope="row">Total {props.title.toLowerCase()}</th><td className="num">{formatCents(props.section.total_cents)}</td></tr></tfoot>
  </table>
)

const Report = ({ shown }: { readonly shown: Shown }) => {
  if (shown.kind === "trial-balance") {
    const report = shown.report
    return (
      <table>
        <caption>Trial balance as of {report.as_of}</caption>
        <thead><tr><th scope="col">Account</th><th scope="col" className="num">Debit</th><th scope="col" className="num">Credit</th></tr></thead>
        <tbody>
          {report.rows.length === 0 ? <tr><td colSpan={3}>No account has a balance.</td></tr> : null}
          {report.rows.map((row, index) => (
            <tr key={`${row.code}-${index}`}>
              <td>{account(row)}</td>
              <td className="num">{row.debit_cents ? formatCents(row.debit_cents) : ""}</td>
              <td className="num">{row.credit_cents ? formatCents(row.credit_cents) : ""}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr aria-label="Totals"><th scope="row">Totals</th><td className="num">{formatCents(report.total_debit_cents)}</td><td className="num">{formatCents(report.total_credit_cents)}</td></tr>
        </tfoot>
      </table>
    )
  }
  if (shown.kind === "profit-and-loss") {
    const report = shown.report
    const amount = (row: ProfitAndLoss["income"]["rows"][number]) => row.amount_cents
    return (
      <>
        <h2>Profit and loss, {report.from} to {report.to}</h2>
        <BarChart title="Profit and loss at a glance" bars={[
          { label: "Income", cents: report.income.total_cents },
          { label: "Cost of goods sold", cents: report.cost_of_goods_sold.total_cents },
          { label: "Expenses", cents: report.expenses.total_cents },
          { label: "Net income", cents: report.net_income_cents }
        ]} />
        <SectionTable title="Income" section={report.income} amount={amount} />
        <SectionTable title="Cost of goods sold" section={report.cost_of_goods_sold} amount={amount} />
        <p>Gross profit: <strong>{formatCents(report.gross_profit_cents)}</strong></p>
        <SectionTable title="Expenses" section={report.expenses} amount={amount} />
        <p>Net income: <strong data-testid="net-income">{formatCents(report.net_income_cents)}</strong></p>
      </>
    )
  }
  const report = shown.report
  const balance = (row: BalanceSheet["assets"]["rows"][number]) => row.balance_cents
  return (
    <>
      <h2>Balance sheet as of {report.as_of}</h2>
      <BarChart title="Balance sheet at a glance" bars={[
        { label: "Assets", cents: report.assets.total_cents },
        { label: "Liabilities", cents: report.liabilities.total_cents },
        { label: "Equity", cents: report.equity.total_cents }
      ]} />
      <SectionTable title="Assets" section={report.assets} amount={balance} />
      <SectionTable title="Liabilities" section={report.liabilities} amount={balance} />
      <SectionTable title="Equity" section={report.equity} amount={balance} />
      <p>Total liabilities and equity: <strong>{formatCents(report.total_liabilities_and_equity_cents)}</strong></p>
    </>
  )
}

const isCsv = (answer: object): answer is CsvFile => "format" in answer && answer.format === "csv"

/** Asks for the report of `kind`; `query` is what the CSV link repeats with `format=csv`. */
const report = async (kind: Kind, from: string, asOf: string): Promise<Shown> => {
  const json = <A extends object>(answer: A): Exclude<A, CsvFile> => {
    if (isCsv(answer)) throw new Error("The server answered a file instead of the report.")
    return answer as Exclude<A, CsvFile>
  }
  if (kind === "profit-and-loss") {
    const input = from === "" ? { to: asOf } : { from, to: asOf }
    return { kind, report: json(await ledger.getProfitAndLoss(input)), query: new URLSearchParams(input).toString() }
  }
  const input = { as_of: asOf }
  const query = new URLSearchParams(input).toString()
  if (kind === "trial-balance") return { kind, report: json(await ledger.getTrialBalance(input)), query }
  return { kind, report: json(await ledger.getBalanceSheet(input)), query }
}

export const Reports = () => {
  const [kind, setKind] = useState<Kind>("trial-balance")
  const [asOf, setAsOf] = useState(today)
  const [from, setFrom] = useState("")
  const [shown, setShown] = useState<Shown | null>(null)
  const { busy, error, run } = useAction()

  const show = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      setShown(await report(kind, from, asOf))
    })
  }

  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title">Reports</h1>
      <form onSubmit={show} className="card">
        <label htmlFor="report-kind">Report</label>
        <select id="report-kind" value={kind} onChange={(event) => {
          // The shown table belongs to the report it was asked for: switching the kind clears it.
          setKind(event.target.value as Kind)
          setShown(null)
        }}>
          {kinds.map((each) => <option key={each.value} value={each.value}>{each.label}</option>)}
        </select>
        {kind === "profit-and-loss" ? (
          <>
            <label htmlFor="report-from">From (empty: start of the fiscal year)</label>
            <input id="report-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </>
        ) : null}
        <label htmlFor="report-date">{kind === "profit-and-loss" ? "To" : "As of"}</label>
        <input id="report-date" type="date" required value={asOf} onChange={(event) => setAsOf(event.target.value)} />
        <div><button type="submit" disabled={busy}>Show report</button></div>
      </form>
      <ErrorMessage error={error} />
      {shown === null ? null : (
        <div className="card">
          <Report shown={shown} />
          <a href={`/v1/reports/${shown.kind}?${shown.query}&format=csv`} download>Download this report as CSV</a>
        </div>
      )}
    </section>
  )
}
