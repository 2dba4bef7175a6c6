import type { Scenario, Step } from "../Scenario.ts"
import { addDays, dateOf, type Generator, generator } from "./Seeded.ts"

export { addDays } from "./Seeded.ts"

/**
 * A year of a small consulting business, generated from a seed: the owner's investment, clients
 * invoiced for hours every month and paying on their terms (some late, some in two parts, some
 * not by year end), rent and software bills paid, a contractor now and then, bank fees and owner's
 * draws posted by a bookkeeping agent within its threshold, and a yearly insurance premium over
 * its threshold that waits for the owner's approval. Only public operations are used.
 *
 * The scenario keeps its own model of what each account must show at the end, so replaying it is
 * also an end-to-end check of the books (expectedBalances, natural direction, in cents).
 */

export interface YearOfBusinessOptions {
  /** The calendar year; the test ledger's clock should be in it (its periods are created then). Default 2025. */
  readonly year?: number
  /** Decides clients, hours, payment delays. Default 1. */
  readonly seed?: number
  readonly customers?: number
  /** Invoices a month, at least and at most. */
  readonly invoicesPerMonth?: readonly [number, number]
}

/** The services starter chart's accounts the scenario uses. */
export const accounts = {
  checking: "1010",
  receivable: "1100",
  payable: "2000",
  investment: "3010",
  draws: "3020",
  revenue: "4000",
  contractors: "6020",
  insurance: "6030",
  rent: "6080",
  bankFees: "6010",
  software: "6260"
} as const

const clientNames = ["Harbor Dental", "Maple & Finch Law", "Brightside Bakery", "Northwind Logistics", "Oak Street Clinic", "Summit Yoga", "Lumen Architects", "Riverbend School"]
const hourlyRateCents = 150_00

/**
 * The year being written: its steps so far and the balances they must leave. The parts below
 * append to it in a fixed order, so the same seed draws the same numbers for the same steps.
 */
interface Year {
  readonly year: number
  readonly yearEnd: string
  readonly random: Generator
  readonly steps: Array<Step>
  readonly balances: Record<string, number>
  billCount: number
  invoiceCount: number
}

const move = (book: Year, account: string, cents: number) => {
  book.balances[account] = (book.balances[account] ?? 0) + cents
}

/** Opening day: the owner's money, the clients and the vendors (before anything refers to them). */
const openingDay = (book: Year, customers: number) => {
  const opening = dateOf(book.year, 1, 1)
  book.steps.push({
    date: opening,
    label: "owner's investment",
    operation: "proposeJournalEntry",
    input: {
      entry_date: opening,
      memo: "Owner's investment",
      lines: [{ account: accounts.checking, debit_cents: 20_000_00 }, { account: accounts.investment, credit_cents: 20_000_00 }]
    }
  })
  move(book, accounts.checking, 20_000_00)
  move(book, accounts.investment, 20_000_00)

  for (let index = 0; index < customers; index++) {
    book.steps.push({
      date: opening,
      label: `client ${clientNames[index]}`,
      operation: "createContact",
      input: { kind: "customer", name: clientNames[index]!, terms_days: book.random.pick([15, 30, 30, 45]) },
      save: `customer-${index}`
    })
  }
  for (const [key, name, terms] of [["landlord", "Parkside Properties", 0], ["software", "CloudSuite Inc.", 0], ["contractor", "Dev Freelance LLC", 15]] as const) {
    book.steps.push({ date: opening, label: `vendor ${name}`, operation: "createContact", input: { kind: "vendor", name, terms_days: terms }, save: `vendor-${key}` })
  }
}

/** A vendor's bill for one expense line, and its payment on `paidOn` (none when null). */
const billAndPay = (
  book: Year,
  bill: {
    readonly vendor: string
    /** Labels read `<kind> bill <month>` and `<kind> payment <month>`. */
    readonly kind: string
    readonly month: number
    readonly date: string
    readonly description: string
    readonly account: string
    readonly cents: number
  },
  paidOn: string | null
) => {
  const saved = `bill-${++book.billCount}`
  book.steps.push({
    date: bill.date,
    label: `${bill.kind} bill ${bill.month}`,
    operation: "createBill",
    input: (context) => ({
      contact_id: context.saved[`vendor-${bill.vendor}`].id,
      doc_date: bill.date,
      lines: [{ description: bill.description, account: bill.account, amount_cents: bill.cents }]
    }),
    save: saved
  })
  move(book, bill.account, bill.cents)
  if (paidOn === null) return move(book, accounts.payable, bill.cents)
  book.steps.push({
    date: paidOn,
    label: `${bill.kind} payment ${bill.month}`,
    operation: "makePayment",
    input: (context) => ({
      contact_id: context.saved[`vendor-${bill.vendor}`].id,
      payment_date: paidOn,
      account: accounts.checking,
      applications: [{ document_id: context.saved[saved].id, amount_cents: bill.cents }]
    })
  })
  move(book, accounts.checking, -bill.cents)
}

/** Rent (billed on the 1st, paid on the 5th), software (billed and paid the same day), now and then a contractor. */
const monthsBills = (book: Year, month: number) => {
  const rentDate = dateOf(book.year, month, 1)
  billAndPay(book, { vendor: "landlord", kind: "rent", month, date: rentDate, description: "Office rent", account: accounts.rent, cents: 1_800_00 },
    dateOf(book.year, month, 5))
  const software = 99_00 + book.random.integer(0, 3) * 20_00
  const softwareDate = dateOf(book.year, month, 3)
  billAndPay(book, {
    vendor: "software", kind: "software", month, date: softwareDate, description: "Software subscriptions", account: accounts.software, cents: software
  }, softwareDate)
  // Now and then a contractor, paid on terms; a December bill is still owed at year end.
  if (book.random.next() < 0.35) {
    const contractor = book.random.integer(8, 40) * 75_00
    const billDate = dateOf(book.year, month, book.random.integer(8, 20))
    const paidOn = addDays(billDate, 15)
    billAndPay(book, {
      vendor: "contractor", kind: "contractor", month, date: billDate, description: "Development hours", account: accounts.contractors, cents: contractor
    }, paidOn <= book.yearEnd ? paidOn : null)
  }
}

/** One client's invoice for hours, paid on terms give or take; some in two parts, some not by year end. */
const invoiceAndCollect = (book: Year, month: number, customers: number) => {
  const customer = book.random.integer(0, customers - 1)
  const hours = book.random.integer(4, 40)
  const total = hours * hourlyRateCents
  const invoiceDate = dateOf(book.year, month, book.random.integer(6, 28))
  const invoiceNumber = ++book.invoiceCount
  const invoice = `invoice-${invoiceNumber}`
  book.steps.push({
    date: invoiceDate,
    label: `invoice ${invoiceNumber}`,
    operation: "createInvoice",
    input: ({ saved }) => ({
      contact_id: saved[`customer-${customer}`].id,
      doc_date: invoiceDate,
      lines: [{ description: `Consulting, ${hours} hours`, account: accounts.revenue, quantity: String(hours), unit_price_cents: hourlyRateCents }]
    }),
    save: invoice
  })
  move(book, accounts.revenue, total)
  const paidOn = addDays(invoiceDate, book.random.integer(10, 60))
  const parts = book.random.next() < 0.2 ? [Math.floor(total / 2), total - Math.floor(total / 2)] : [total]
  let received = 0
  parts.forEach((part, index) => {
    const date = addDays(paidOn, index * 14)
    if (date > book.yearEnd) return
    book.steps.push({
      date,
      label: `payment ${index + 1} of invoice ${invoiceNumber}`,
      operation: "receivePayment",
      input: ({ saved }) => ({
        contact_id: saved[`customer-${customer}`].id,
        payment_date: date,
        account: accounts.checking,
        applications: [{ document_id: saved[invoice].id, amount_cents: part }]
      })
    })
    received += part
  })
  move(book, accounts.checking, received)
  move(book, accounts.receivable, total - received)
}

/** Month end: the bank's fee, posted by the bookkeeping agent (well under its threshold); at quarter end the owner draws. */
const monthEnd = (book: Year, month: number) => {
  const lastDay = dateOf(book.year, month, new Date(Date.UTC(book.year, month, 0)).getUTCDate())
  book.steps.push({
    date: lastDay,
    label: `bank fee ${month}`,
    actor: "bookkeeper",
    operation: "proposeJournalEntry",
    input: {
      entry_date: lastDay,
      memo: "Monthly service charge",
      lines: [{ account: accounts.bankFees, debit_cents: 15_00 }, { account: accounts.checking, credit_cents: 15_00 }]
    }
  })
  move(book, accounts.bankFees, 15_00)
  move(book, accounts.checking, -15_00)
  if (month % 3 !== 0) return
  const draw = book.random.integer(10, 30) * 100_00
  book.steps.push({
    date: lastDay,
    label: `owner's draw ${month}`,
    operation: "proposeJournalEntry",
    input: {
      entry_date: lastDay,
      memo: "Owner's draw",
      lines: [{ account: accounts.draws, debit_cents: draw }, { account: accounts.checking, credit_cents: draw }]
    }
  })
  // Draws reduce equity: a debit to an account that grows with credits.
  move(book, accounts.draws, -draw)
  move(book, accounts.checking, -draw)
}

/** The yearly insurance premium: over the agent's threshold, so it waits for the owner. */
const insurancePremium = (book: Year) => {
  const premiumDate = dateOf(book.year, 3, 15)
  book.steps.push({
    date: premiumDate,
    label: "insurance premium (proposed)",
    actor: "bookkeeper",
    operation: "proposeJournalEntry",
    input: {
      entry_date: premiumDate,
      memo: "Liability insurance, yearly premium",
      lines: [{ account: accounts.insurance, debit_cents: 1_450_00 }, { account: accounts.checking, credit_cents: 1_450_00 }]
    },
    expect: "queued",
    save: "insurance-proposal"
  })
  book.steps.push({
    date: addDays(premiumDate, 1),
    label: "owner approves the insurance premium",
    operation: "approveProposal",
    input: ({ saved }) => ({ id: saved["insurance-proposal"].proposal.id, reason: "Renewal confirmed with the broker" })
  })
  move(book, accounts.insurance, 1_450_00)
  move(book, accounts.checking, -1_450_00)
}

export const yearOfBusiness = (options: YearOfBusinessOptions = {}): Scenario => {
  const year = options.year ?? 2025
  const customers = Math.min(options.customers ?? 5, clientNames.length)
  const [invoicesMin, invoicesMax] = options.invoicesPerMonth ?? [2, 5]
  const book: Year = {
    year,
    yearEnd: dateOf(year, 12, 31),
    random: generator(options.seed ?? 1),
    steps: [],
    balances: {},
    billCount: 0,
    invoiceCount: 0
  }
  openingDay(book, customers)
  for (let month = 1; month <= 12; month++) {
    monthsBills(book, month)
    for (let count = book.random.integer(invoicesMin, invoicesMax); count > 0; count--) invoiceAndCollect(book, month, customers)
    monthEnd(book, month)
  }
  insurancePremium(book)
  const { balances } = book
  return {
    name: `A year of business (${year}, seed ${options.seed ?? 1})`,
    company: { name: "Cedar & Pine Consulting", owner_name: "Jordan Lee", starter_chart: "services", plan: "advanced" },
    agents: [{ name: "bookkeeper", scopes: ["read", "propose"], posting_threshold_cents: 500_00, model: "testkit-bookkeeper/1" }],
    steps: book.steps,
    expectedBalances: { ...balances, [accounts.payable]: balances[accounts.payable] ?? 0, [accounts.receivable]: balances[accounts.receivable] ?? 0 },
    balancesAsOf: book.yearEnd
  }
}
