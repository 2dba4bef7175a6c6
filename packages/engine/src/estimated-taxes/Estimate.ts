import { Effect } from "effect"
import { ApiError, type EstimatedTaxes } from "@ledger/api"
import { daysBetween } from "../kernel/values/Calendar.ts"
import * as DueDates from "./DueDates.ts"
import * as Store from "./EstimateStore.ts"
import * as Tables from "./TaxTables.ts"
import * as Worksheet from "./WorksheetRules.ts"

type PlanInputs = EstimatedTaxes.EstimatedTaxes.PlanInputs
type PlanBody = Partial<PlanInputs>

/** The plan's inputs: the body's fields over the saved plan's over the defaults (return type: the tax profile's, else SCHC). */
export const inputsOf = (saved: PlanInputs | null, body: PlanBody, profile: PlanInputs["return_type"] | null = null): PlanInputs => {
  const returnType = body.return_type ?? saved?.return_type ?? profile ?? "SCHC"
  const defaults: PlanInputs = {
    return_type: returnType,
    income_method: "annualized",
    manual_income_cents: null,
    adjustments_cents: 0,
    owner_share_ppm: 1_000_000,
    se_tax: returnType === "SCHC" || returnType === "1065",
    filing_status: "single",
    other_income_cents: 0,
    investment_income_cents: 0,
    wages_ss_cents: 0,
    deductions_cents: null,
    qbi_deduction_cents: null,
    credits_cents: 0,
    withholding_cents: 0,
    prior_year_tax_cents: null,
    prior_year_high_agi: false,
    prior_year_full: true,
    large_corporation: false,
    safe_harbor: "lower",
    payment_account: null,
    pay_from_account: null,
    reminders: false,
    reminder_days: 7
  }
  // A plan saved before a field existed takes the field's default.
  const base: PlanInputs = saved === null ? defaults : { ...defaults, ...saved }
  const defined = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined))
  return { ...base, ...defined, return_type: returnType }
}

/** Days from `from` through `to`, both counted: January 1 to January 1 is one day. */
const daysThrough = (from: string, to: string) => daysBetween(from, to) + 1

/** The business income the plan's method gives: typed in, the books' year to date, or that annualized by days. */
export const incomeOf = (company: string, inputs: PlanInputs, year: number, today: string) =>
  Effect.gen(function*() {
    if (inputs.income_method === "manual") return { cents: inputs.manual_income_cents ?? 0, basis: "manual" }
    const yearEnd = `${year}-12-31`
    const through = today < yearEnd ? today : yearEnd
    if (through < `${year}-01-01`) return { cents: 0, basis: "the year has not started" }
    const ytd = yield* Store.netIncome(company, year, through)
    if (inputs.income_method === "ytd") return { cents: ytd, basis: `books, January 1 to ${through}` }
    const elapsed = daysThrough(`${year}-01-01`, through)
    const days = daysThrough(`${year}-01-01`, yearEnd)
    return { cents: Worksheet.scaleHalfUp(ytd, days, elapsed), basis: `books, January 1 to ${through}, annualized (${days}/${elapsed} days)` }
  })

/**
 * The tax years Ledger plans and records payments for (DECISIONS "Tax years"): from the first year
 * it has tables for to next year, whose due dates and prior-year safe harbor need no tables. A
 * payment for a year outside them could be read back nowhere, so it is refused too.
 */
export const checkYear = (year: number, today: string) => {
  const lastYear = Number(today.slice(0, 4)) + 1
  if (year >= Tables.firstYear && year <= lastYear) return Effect.void
  const supported = Array.from({ length: lastYear - Tables.firstYear + 1 }, (_, index) => Tables.firstYear + index)
  return Effect.fail(ApiError.fail(
    "tax_year_unsupported",
    `Estimated taxes cover ${Tables.firstYear} to ${lastYear} (next year); ${year} is outside them.`,
    { first_year: Tables.firstYear, last_year: lastYear, supported_years: supported }
  ))
}

/** The estimate of a year from plan inputs, the tables and the payments recorded. */
export const estimate = (company: string, year: number, inputs: PlanInputs, saved: { readonly savedAt: string } | null, today: string) =>
  Effect.gen(function*() {
    yield* checkYear(year, today)
    // A C corporation's 21% (IRC 11(b)) needs no year's tables; an individual's worksheet does.
    const corporate = inputs.return_type === "1120"
    const { tables, estimated: tablesEstimated } = Tables.tablesFor(year)
    const estimated = !corporate && tablesEstimated
    const income = yield* incomeOf(company, inputs, year, today)
    const result = Worksheet.compute({
      returnType: inputs.return_type,
      incomeCents: income.cents,
      adjustmentsCents: inputs.adjustments_cents,
      ownerSharePpm: inputs.return_type === "SCHC" || inputs.return_type === "1120" ? 1_000_000 : inputs.owner_share_ppm,
      seTax: inputs.se_tax,
      filingStatus: inputs.filing_status,
      otherIncomeCents: inputs.other_income_cents,
      investmentIncomeCents: inputs.investment_income_cents,
      wagesSsCents: inputs.wages_ss_cents,
      deductionsCents: inputs.deductions_cents,
      qbiDeductionCents: inputs.qbi_deduction_cents,
      creditsCents: inputs.credits_cents,
      withholdingCents: inputs.withholding_cents,
      priorYearTaxCents: inputs.prior_year_tax_cents,
      priorYearHighAgi: inputs.prior_year_high_agi,
      priorYearFull: inputs.prior_year_full,
      largeCorporation: inputs.large_corporation,
      safeHarbor: inputs.safe_harbor
    }, tables)
    const payments = yield* Store.payments(company, year)
    const schedule = inputs.return_type === "1120" ? "corporation" : "individual"
    const statutory = DueDates.statutory(year, schedule)
    const live = payments.filter((one) => one.status === "recorded")
    const quarters = statutory.map((date, index) => {
      const paid = live.filter((one) => one.quarter === index + 1).reduce((sum, one) => sum + one.amount_cents, 0)
      const amount = result.installments[index]!
      return { quarter: index + 1, statutory_date: date, due_date: DueDates.rollForward(date), amount_cents: amount, paid_cents: paid, remaining_cents: Math.max(0, amount - paid) }
    })
    const paid = live.reduce((sum, one) => sum + one.amount_cents, 0)
    return {
      tax_year: year,
      form: result.form,
      saved: saved !== null,
      saved_at: saved?.savedAt ?? null,
      plan: inputs,
      income_cents: income.cents,
      income_basis: income.basis,
      worksheet: result.lines,
      safe_harbors: {
        current_year_cents: result.currentYearSafeHarborCents,
        prior_year_cents: result.priorYearSafeHarborCents,
        required_annual_cents: result.requiredAnnualCents,
        current_year_estimated: estimated,
        chosen: result.chosen,
        payments_required: result.paymentsRequired
      },
      total_tax_cents: result.totalTaxCents,
      quarters,
      total_due_cents: result.toPayCents,
      paid_cents: paid,
      remaining_cents: Math.max(0, result.toPayCents - paid),
      payments,
      tables_year: corporate ? null : tables.year,
      tables_estimated: estimated,
      tables_source: corporate
        ? "IRC 11(b): 21% (Form 1120-W)"
        : estimated
        ? `${year}'s tables are not in Ledger yet: estimated with ${tables.year}'s (${tables.source})`
        : tables.source
    }
  })
