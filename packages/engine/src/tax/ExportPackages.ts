import type { Tax } from "@ledger/api"
import { Csv } from "../reports/index.ts"

/**
 * The files for tax software, from the trial balance by line (pure). ADR 1302 records what each
 * is modelled on: `generic` CSV by line and account; `package_a` a trial-balance import in the
 * UltraTax CS style (account, description, signed balance, tax code); `package_b` a tab-separated
 * import in the Lacerte style (account, description, debit, credit, tax line); `package_c` a
 * worksheet in the CCH ProSystem fx / Axcess style (a header block, then one row per account with
 * form and line). Amounts are decimal strings with two places; cents stay integers everywhere else.
 */

type Balance = Tax.TrialBalance.TaxTrialBalance
type Package = Tax.TrialBalance.TaxExport["package"]

export interface Rendered {
  readonly filename: string
  readonly contentType: string
  readonly content: string
}

const accountRows = (balance: Balance) =>
  balance.lines.flatMap((line) => line.accounts.map((account) => ({ line, account })))

const tabCell = (value: string): string => value.replace(/[\t\r\n]/g, " ")

export const render = (pkg: Package, balance: Balance, companyName: string): Rendered => {
  // Exhaustive over the four packages: the switch below returns in every case.
  const stem = `tax-${balance.return_type}-${balance.as_of}-${pkg}`
  const rows = accountRows(balance)
  switch (pkg) {
    case "generic":
      return {
        filename: `${stem}.csv`,
        contentType: "text/csv",
        content: Csv.render(
          ["Return", "Line", "Form", "Line Number", "Line Description", "Account", "Account Name", "Debit", "Credit"],
          rows.map(({ line, account }) => [balance.return_type, line.line, line.form, line.line_number, line.description, account.code, account.name, Csv.cents(account.debit_cents), Csv.cents(account.credit_cents)])
        )
      }
    case "package_a":
      return {
        filename: `${stem}.csv`,
        contentType: "text/csv",
        content: Csv.render(
          ["Account Number", "Account Description", "Balance", "Tax Code"],
          rows.map(({ line, account }) => [account.code, account.name, Csv.cents(account.debit_cents - account.credit_cents), line.line])
        )
      }
    case "package_b":
      return {
        filename: `${stem}.txt`,
        contentType: "text/tab-separated-values",
        content: [
          ["ACCOUNT", "DESCRIPTION", "DEBIT", "CREDIT", "TAXLINE"].join("\t"),
          ...rows.map(({ line, account }) => [tabCell(account.code ?? ""), tabCell(account.name), Csv.amount(account.debit_cents), Csv.amount(account.credit_cents), line.line ?? ""].join("\t"))
        ].join("\r\n") + "\r\n"
      }
    case "package_c":
      return {
        filename: `${stem}.csv`,
        contentType: "text/csv",
        content: Csv.render(["Worksheet", "Tax Trial Balance"], [
          ["Client", companyName],
          ["Return", balance.return_type],
          ["Period End", balance.as_of],
          [],
          ["Account", "Description", "Debit", "Credit", "Form", "Line", "Grouping"],
          ...rows.map(({ line, account }) => [account.code, account.name, Csv.cents(account.debit_cents), Csv.cents(account.credit_cents), line.form, line.line_number, line.line]),
          [null, "Total", Csv.cents(balance.total_debit_cents), Csv.cents(balance.total_credit_cents)]
        ])
      }
    default:
      return pkg satisfies never
  }
}
