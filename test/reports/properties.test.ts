import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { createClass, generalLedgerPages, type Line, post, report, reverse, setFiscalYearStart, trialBalanceNets } from "./support.ts"

/**
 * Random companies over HTTP: a random fiscal-year start, random balanced entries over three
 * years (several lines, some with classes) and random reversals. For random dates, whatever was
 * posted:
 * - the trial balance's totals are equal, and every row equals a recomputation from the journal
 *   lines themselves (not from the totals the reports read), with income and expenses closed to
 *   retained earnings at each fiscal-year start;
 * - the balance sheet balances, and its current-year earnings are the profit and loss's net
 *   income for the fiscal year to date;
 * - the general ledger's closing balances (read a few lines a page) equal the trial balance;
 * - by_class columns add up to the report without classes.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-12-31T12:00:00Z" })
})
afterAll(() => app.close())

const codes = ["1010", "1400", "1300", "2700", "2100", "3010", "3020", "3900", "4000", "4100", "5000", "6080", "6110"] as const
const classes = ["East", "West"] as const

const date = fc.integer({ min: 0, max: 4 * 365 - 1 }).map((days) => new Date(Date.UTC(2023, 0, 1) + days * 86_400_000).toISOString().slice(0, 10))

/** A balanced entry: debits of random amounts, their total split over one to three credits. */
const entry = fc.record({
  date,
  debits: fc.array(fc.record({
    account: fc.constantFrom(...codes),
    cents: fc.integer({ min: 1, max: 5_000_000 }),
    className: fc.option(fc.constantFrom(...classes), { nil: undefined })
  }), { minLength: 1, maxLength: 3 }),
  creditAccounts: fc.array(fc.record({
    account: fc.constantFrom(...codes),
    className: fc.option(fc.constantFrom(...classes), { nil: undefined })
  }), { minLength: 1, maxLength: 3 }),
  splits: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 3, maxLength: 3 })
}).map(({ date, debits, creditAccounts, splits }): { date: string; lines: ReadonlyArray<Line> } => {
  const total = debits.reduce((sum, line) => sum + line.cents, 0)
  const weights = creditAccounts.map((_, index) => splits[index]!)
  const weightTotal = weights.reduce((sum, weight) => sum + weight, 0)
  const shares = weights.map((weight) => Math.floor((total * weight) / weightTotal))
  // The rounding remainder goes to the first credit; a credit that rounds to zero is dropped.
  shares[0]! += total - shares.reduce((sum, share) => sum + share, 0)
  const credits = creditAccounts.flatMap((line, index) => shares[index]! > 0
    ? [{ account: line.account, credit_cents: shares[index]!, ...(line.className === undefined ? {} : { class: line.className }) }]
    : [])
  return {
    date,
    lines: [
      ...debits.map((line) => ({ account: line.account, debit_cents: line.cents, ...(line.className === undefined ? {} : { class: line.className }) })),
      ...credits
    ]
  }
})

const scenario = fc.record({
  startMonth: fc.integer({ min: 1, max: 12 }),
  entries: fc.array(entry, { minLength: 1, maxLength: 10 }),
  reversals: fc.array(fc.record({ pick: fc.nat(), date }), { maxLength: 3 }),
  asOf: fc.array(date, { minLength: 1, maxLength: 2 }),
  ledgerFrom: date
})

interface StoredLine {
  readonly code: string
  readonly type: string
  readonly date: string
  readonly cents: number
}

const fiscalYearStart = (day: string, startMonth: number): string => {
  const year = Number(day.slice(0, 4))
  const month = Number(day.slice(5, 7))
  const startYear = month >= startMonth ? year : year - 1
  return `${startYear}-${String(startMonth).padStart(2, "0")}-01`
}

/** The trial balance as of `asOf`, from the journal lines: debit-positive nets by account code. */
const recompute = (lines: ReadonlyArray<StoredLine>, asOf: string, startMonth: number): Record<string, number> => {
  const yearStart = fiscalYearStart(asOf, startMonth)
  const nets: Record<string, number> = {}
  let earlierProfitAndLossNet = 0
  for (const line of lines) {
    if (line.date > asOf) continue
    const isProfitAndLoss = line.type === "income" || line.type === "expense"
    if (isProfitAndLoss && line.date < yearStart) {
      earlierProfitAndLossNet += line.cents
      continue
    }
    nets[line.code] = (nets[line.code] ?? 0) + line.cents
  }
  // Earlier years' income and expenses are closed into retained earnings (3900).
  nets["3900"] = (nets["3900"] ?? 0) + earlierProfitAndLossNet
  return Object.fromEntries(Object.entries(nets).filter(([, net]) => net !== 0).sort(([left], [right]) => (left < right ? -1 : 1)))
}

describe("reports over random postings and reversals", () => {
  it("always balance, agree with each other and with the journal lines", async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(scenario, async ({ startMonth, entries, reversals, asOf, ledgerFrom }) => {
        run++
        const company = await app.createCompany({ name: `Random ${run}`, starter_chart: "general", periods: false })
        const token = company.ownerKey
        await setFiscalYearStart(app, company, startMonth)
        for (const name of classes) await createClass(app, token, name)
        const posted: Array<number> = []
        for (const [index, drawn] of entries.entries()) posted.push(await post(app, token, drawn.date, `Entry ${index}`, drawn.lines))
        const reversed = new Set<number>()
        for (const reversal of reversals) {
          const id = posted[reversal.pick % posted.length]!
          if (reversed.has(id)) continue
          reversed.add(id)
          await reverse(app, token, id, reversal.date)
        }
        const stored = (await app.query<{ code: string; type: string; entry_date: string; amount_cents: string }>(
          `SELECT a.code, a.type, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, l.amount_cents::text AS amount_cents
           FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
           WHERE l.company_id = $1`,
          [company.companyId]
        )).map((row) => ({ code: row.code, type: row.type, date: row.entry_date, cents: Number(row.amount_cents) }))

        for (const day of asOf) {
          const trialBalance = await report(app, token, "trial-balance", { as_of: day })
          expect(trialBalance.total_debit_cents).toBe(trialBalance.total_credit_cents)
          for (const row of trialBalance.rows) expect(row.debit_cents === 0 || row.credit_cents === 0).toBe(true)
          expect(trialBalanceNets(trialBalance)).toEqual(recompute(stored, day, startMonth))

          const balanceSheet = await report(app, token, "balance-sheet", { as_of: day })
          expect(balanceSheet.assets.total_cents).toBe(balanceSheet.total_liabilities_and_equity_cents)
          const profitAndLoss = await report(app, token, "profit-and-loss", { to: day })
          expect(profitAndLoss.from).toBe(fiscalYearStart(day, startMonth))
          expect(balanceSheet.current_year_earnings_cents).toBe(profitAndLoss.net_income_cents)

          const byClass = await report(app, token, "trial-balance", { as_of: day, by_class: true })
          expect(byClass.total_debit_cents).toBe(trialBalance.total_debit_cents)
          const plainRows = trialBalance.rows.map((row: any) => [row.code, row.debit_cents, row.credit_cents])
          expect(byClass.rows.filter((row: any) => row.debit_cents !== row.credit_cents).map((row: any) => [row.code, row.debit_cents, row.credit_cents]))
            .toEqual(plainRows)
          for (const row of byClass.rows) {
            const net = row.by_class.reduce((sum: number, amount: any) => sum + amount.debit_cents - amount.credit_cents, 0)
            expect(net).toBe(row.debit_cents - row.credit_cents)
          }
          const classPnl = await report(app, token, "profit-and-loss", { to: day, by_class: true })
          expect(classPnl.net_income_by_class.reduce((sum: number, amount: any) => sum + amount.amount_cents, 0))
            .toBe(profitAndLoss.net_income_cents)

          if (ledgerFrom <= day) {
            const pages = await generalLedgerPages(app, token, { from: ledgerFrom, to: day, limit: 5 })
            const closing: Record<string, number> = {}
            for (const page of pages) {
              for (const account of page.accounts) {
                const sign = ["asset", "expense"].includes(account.type) ? 1 : -1
                closing[account.code] = sign * account.closing_balance_cents
                for (const line of account.lines) expect(Number.isSafeInteger(line.balance_cents)).toBe(true)
              }
            }
            const nonZero = Object.fromEntries(Object.entries(closing).filter(([, net]) => net !== 0))
            expect(nonZero).toEqual(trialBalanceNets(trialBalance))
          }
        }
      }),
      { numRuns: 20 }
    )
  }, 600_000)
})
