import * as Tables from "./TaxTables.ts"

/**
 * The estimated-tax worksheet as pure functions of its inputs, in integer cents (docs/estimated-taxes.md).
 * Individuals (SCHC sole proprietors; 1065 and 1120S owners): the Form 1040-ES Estimated Tax
 * Worksheet. C corporations (1120): Form 1120-W. Rounding: half up to the cent at each step named.
 */
export type ReturnType = "SCHC" | "1065" | "1120S" | "1120"
export type SafeHarbor = "lower" | "current_year" | "prior_year"

export interface Inputs {
  readonly returnType: ReturnType
  /** The business income this return carries, before the owner's share. */
  readonly incomeCents: number
  readonly adjustmentsCents: number
  readonly ownerSharePpm: number
  readonly seTax: boolean
  readonly filingStatus: Tables.FilingStatus
  readonly otherIncomeCents: number
  /** Of the other income, the net investment income (interest, dividends, gains, rents): the NIIT's base. */
  readonly investmentIncomeCents: number
  /** Wages (social security and Medicare wages are taken as the same; see additionalMedicareTax). */
  readonly wagesSsCents: number
  readonly deductionsCents: number | null
  readonly qbiDeductionCents: number | null
  readonly creditsCents: number
  readonly withholdingCents: number
  readonly priorYearTaxCents: number | null
  readonly priorYearHighAgi: boolean
  readonly priorYearFull: boolean
  readonly largeCorporation: boolean
  readonly safeHarbor: SafeHarbor
}

export interface Line {
  readonly line: string
  readonly label: string
  readonly cents: number
}

/** a x ppm / 1e6, rounded half up (a >= 0). */
export const ppmOf = (cents: number, ppm: number): number => {
  if (cents <= 0) return 0
  const product = BigInt(cents) * BigInt(ppm)
  return Number((2n * product + 1_000_000n) / 2_000_000n)
}

/** A signed amount times a share, rounded half away from zero. */
export const signedPpm = (cents: number, ppm: number): number => cents < 0 ? -ppmOf(-cents, ppm) : ppmOf(cents, ppm)

/** cents x numerator / denominator, rounded half away from zero (annualizing year-to-date income by days). */
export const scaleHalfUp = (cents: number, numerator: number, denominator: number): number => {
  const magnitude = (2n * BigInt(Math.abs(cents)) * BigInt(numerator) + BigInt(denominator)) / (2n * BigInt(denominator))
  return cents < 0 ? -Number(magnitude) : Number(magnitude)
}

/** Tax on taxable income by the year's brackets, in cents (each bracket exact, total rounded half up). */
export const bracketTax = (taxableCents: number, tables: Tables.YearTables, status: Tables.FilingStatus): number => {
  if (taxableCents <= 0) return 0
  const bounds = [...tables.brackets[status].map((dollars) => dollars * 100), Number.MAX_SAFE_INTEGER]
  let previous = 0
  let hundredths = 0n
  for (let index = 0; index < bounds.length && previous < taxableCents; index++) {
    const slice = Math.min(taxableCents, bounds[index]!) - previous
    hundredths += BigInt(slice) * BigInt(Tables.bracketRatesPercent[index]!)
    previous = bounds[index]!
  }
  return Number((hundredths + 50n) / 100n)
}

/** Schedule SE: social security on 92.35% of earnings up to the wage base less wages, plus Medicare. Under $400 of earnings: none. */
export const selfEmploymentTax = (seIncomeCents: number, wagesSsCents: number, tables: Tables.YearTables) => {
  const netEarnings = ppmOf(seIncomeCents, Tables.seNetEarningsPpm)
  if (netEarnings < 40_000) return { netEarnings, socialSecurity: 0, medicare: 0, total: 0, deduction: 0 }
  const base = Math.max(0, tables.socialSecurityWageBase * 100 - wagesSsCents)
  const socialSecurity = ppmOf(Math.min(netEarnings, base), Tables.socialSecurityRatePpm)
  const medicare = ppmOf(netEarnings, Tables.medicareRatePpm)
  const total = socialSecurity + medicare
  return { netEarnings, socialSecurity, medicare, total, deduction: Math.floor(total / 2) }
}

/**
 * Additional Medicare Tax on wages and self-employment income (Form 8959 Parts I and II): 0.9% of
 * wages above the threshold, and 0.9% of self-employment income (Schedule SE net earnings) above
 * the threshold less the wages (not below zero). The plan knows one wage figure, `wages_ss_cents`:
 * it stands for Medicare wages too (they differ only above the social security wage base).
 */
export const additionalMedicareTax = (wagesCents: number, seNetEarningsCents: number, status: Tables.FilingStatus) => {
  const threshold = Tables.additionalMedicareThresholdDollars[status] * 100
  const onWages = ppmOf(Math.max(0, wagesCents - threshold), Tables.additionalMedicareRatePpm)
  const seThreshold = Math.max(0, threshold - Math.max(0, wagesCents))
  const onSelfEmployment = ppmOf(Math.max(0, seNetEarningsCents - seThreshold), Tables.additionalMedicareRatePpm)
  return { onWages, onSelfEmployment, total: onWages + onSelfEmployment }
}

/** Net investment income tax (Form 8960): 3.8% of the smaller of net investment income and MAGI over the threshold. MAGI is AGI here (no foreign income exclusion). */
export const netInvestmentIncomeTax = (investmentIncomeCents: number, magiCents: number, status: Tables.FilingStatus): number => {
  const over = Math.max(0, magiCents - Tables.netInvestmentIncomeThresholdDollars[status] * 100)
  return ppmOf(Math.min(Math.max(0, investmentIncomeCents), over), Tables.netInvestmentIncomeRatePpm)
}

export interface Result {
  readonly form: "1040-ES" | "1120-W"
  readonly lines: ReadonlyArray<Line>
  readonly totalTaxCents: number
  readonly currentYearSafeHarborCents: number
  readonly priorYearSafeHarborCents: number | null
  readonly requiredAnnualCents: number
  readonly chosen: "current_year" | "prior_year"
  readonly toPayCents: number
  readonly paymentsRequired: boolean
  /** The four installments, cents, summing to toPayCents. */
  readonly installments: readonly [number, number, number, number]
}

/** Splits a total into four installments: equal cents, the remainder on the earliest. */
export const quarters = (total: number): readonly [number, number, number, number] => {
  const base = Math.floor(total / 4)
  const rest = total - base * 4
  return [0, 1, 2, 3].map((index) => base + (index < rest ? 1 : 0)) as unknown as readonly [number, number, number, number]
}

const choose = (inputs: Inputs, current: number, prior: number | null) => {
  if (inputs.safeHarbor === "current_year" || prior === null) return { required: current, chosen: "current_year" as const }
  if (inputs.safeHarbor === "prior_year") return { required: prior, chosen: "prior_year" as const }
  return prior < current ? { required: prior, chosen: "prior_year" as const } : { required: current, chosen: "current_year" as const }
}

const individual = (inputs: Inputs, tables: Tables.YearTables): Result => {
  const business = signedPpm(inputs.incomeCents, inputs.ownerSharePpm) + inputs.adjustmentsCents
  const se = inputs.seTax ? selfEmploymentTax(Math.max(0, business), inputs.wagesSsCents, tables) : selfEmploymentTax(0, 0, tables)
  const agi = business + inputs.otherIncomeCents - se.deduction
  const deductions = inputs.deductionsCents ?? tables.standardDeduction[inputs.filingStatus] * 100
  const beforeQbi = Math.max(0, agi - deductions)
  const qbi = inputs.qbiDeductionCents ?? ppmOf(Math.min(Math.max(0, business - se.deduction), beforeQbi), 200_000)
  const taxable = Math.max(0, beforeQbi - qbi)
  const incomeTax = bracketTax(taxable, tables, inputs.filingStatus)
  const credits = Math.min(incomeTax, inputs.creditsCents)
  const afterCredits = incomeTax - credits
  // Line 10, other taxes: those of Schedule 2 the plan's inputs allow, Additional Medicare Tax
  // (Form 8959) and the net investment income tax (Form 8960).
  const medicare = additionalMedicareTax(inputs.wagesSsCents, se.total > 0 ? se.netEarnings : 0, inputs.filingStatus)
  const niit = netInvestmentIncomeTax(Math.min(inputs.investmentIncomeCents, Math.max(0, inputs.otherIncomeCents)), agi, inputs.filingStatus)
  const otherTaxes = medicare.total + niit
  const total = afterCredits + se.total + otherTaxes
  const current = ppmOf(total, 900_000)
  const prior = inputs.priorYearTaxCents === null || !inputs.priorYearFull ? null : ppmOf(inputs.priorYearTaxCents, inputs.priorYearHighAgi ? 1_100_000 : 1_000_000)
  const { required, chosen } = choose(inputs, current, prior)
  const paymentsRequired = total - inputs.withholdingCents >= Tables.individualThresholdCents
  const toPay = paymentsRequired ? Math.max(0, required - inputs.withholdingCents) : 0
  // The line numbers of the Form 1040-ES Estimated Tax Worksheet (2024 to 2026 editions). Line 5
  // (alternative minimum tax) and 11b (refundable credits) are not computed: no input gives them.
  const lines: Array<Line> = [
    { line: "1", label: "Adjusted gross income (business income, other income, less half of SE tax)", cents: agi },
    { line: "2a", label: inputs.deductionsCents === null ? "Standard deduction" : "Itemized deductions", cents: deductions },
    { line: "2b", label: "Qualified business income deduction", cents: qbi },
    { line: "2c", label: "Add lines 2a and 2b", cents: deductions + qbi },
    { line: "3", label: "Taxable income (line 1 less line 2c)", cents: taxable },
    { line: "4", label: "Tax on line 3 by the year's tax rate schedule", cents: incomeTax },
    { line: "6", label: "Line 4 plus line 5 (no alternative minimum tax computed)", cents: incomeTax },
    { line: "7", label: "Credits", cents: credits },
    { line: "8", label: "Line 6 less line 7", cents: afterCredits },
    { line: "9", label: "Self-employment tax", cents: se.total },
    { line: "10", label: "Other taxes: Additional Medicare Tax (Form 8959) and net investment income tax (Form 8960)", cents: otherTaxes },
    { line: "10-8959", label: "Of line 10: Additional Medicare Tax (0.9%)", cents: medicare.total },
    { line: "10-8960", label: "Of line 10: net investment income tax (3.8%)", cents: niit },
    { line: "11a", label: "Add lines 8 through 10", cents: total },
    { line: "11c", label: "Total estimated tax", cents: total },
    { line: "12a", label: "90% of line 11c", cents: current },
    { line: "12b", label: inputs.priorYearHighAgi ? "110% of prior year's tax" : "100% of prior year's tax", cents: prior ?? 0 },
    { line: "12c", label: "Required annual payment", cents: required },
    { line: "13", label: "Income tax withheld", cents: inputs.withholdingCents },
    { line: "14a", label: "Subtract line 13 from line 12c", cents: Math.max(0, required - inputs.withholdingCents) },
    { line: "14b", label: "Subtract line 13 from line 11c (under $1,000: no payments required)", cents: Math.max(0, total - inputs.withholdingCents) },
    { line: "15", label: "Each installment", cents: quarters(toPay)[0] }
  ]
  return { form: "1040-ES", lines, totalTaxCents: total, currentYearSafeHarborCents: current, priorYearSafeHarborCents: prior, requiredAnnualCents: required, chosen, toPayCents: toPay, paymentsRequired, installments: quarters(toPay) }
}

const corporation = (inputs: Inputs): Result => {
  const taxable = Math.max(0, inputs.incomeCents + inputs.adjustmentsCents + inputs.otherIncomeCents)
  const tax = ppmOf(taxable, Tables.corporateRatePpm)
  const total = Math.max(0, tax - inputs.creditsCents)
  const prior = inputs.priorYearTaxCents === null || !inputs.priorYearFull || inputs.priorYearTaxCents <= 0 ? null : inputs.priorYearTaxCents
  const { required, chosen } = choose(inputs, total, prior)
  const paymentsRequired = total >= Tables.corporateThresholdCents
  const toPay = paymentsRequired ? required : 0
  // A large corporation may use the prior year's tax for the first installment only (IRC 6655(d)(2));
  // the second catches up to half of the current year's tax.
  const installments = inputs.largeCorporation && chosen === "prior_year" && paymentsRequired
    ? ((first) => [first, Math.max(0, ppmOf(total, 500_000) - first), ppmOf(total, 750_000) - ppmOf(total, 500_000), total - ppmOf(total, 750_000)] as const)(quarters(required)[0])
    : quarters(toPay)
  const lines: Array<Line> = [
    { line: "1", label: "Taxable income expected for the year", cents: taxable },
    { line: "2", label: "Tax at 21%", cents: tax },
    { line: "5", label: "Credits", cents: Math.min(tax, inputs.creditsCents) },
    { line: "8", label: "Total tax", cents: total },
    { line: "9", label: "Prior year's tax", cents: prior ?? 0 },
    { line: "10", label: inputs.largeCorporation ? "Required annual payment (large corporation: prior year for the 1st installment only)" : "Required annual payment", cents: required },
    { line: "11", label: "Installments (1st)", cents: installments[0] }
  ]
  const sum = installments.reduce((a, b) => a + b, 0)
  return { form: "1120-W", lines, totalTaxCents: total, currentYearSafeHarborCents: total, priorYearSafeHarborCents: prior, requiredAnnualCents: required, chosen, toPayCents: sum, paymentsRequired, installments }
}

export const compute = (inputs: Inputs, tables: Tables.YearTables): Result =>
  inputs.returnType === "1120" ? corporation(inputs) : individual(inputs, tables)
