import type { Scenario, Step } from "../Scenario.ts"

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

/** mulberry32: a small seeded generator, so the same seed gives the same year. */
const generator = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
  }
  return {
    next,
    integer: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  }
}

const pad = (value: number) => String(value).padStart(2, "0")
const dateOf = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)

const clientNames = ["Harbor Dental", "Maple & Finch Law", "Brightside Bakery", "Northwind Logistics", "Oak Street Clinic", "Summit Yoga", "Lumen Architects", "Riverbend School"]
const hourlyRateCents = 150_00

export const yearOfBusiness = (options: YearOfBusinessOptions = {}): Scenario => {
  const year = options.year ?? 2025
  const random = generator(options.seed ?? 1)
  const customers = Math.min(options.customers ?? 5, clientNames.length)
  const [invoicesMin, invoicesMax] = options.invoicesPerMonth ?? [2, 5]
  const yearEnd = dateOf(year, 12, 31)
  const steps: Array<Step> = []
  const balances: Record<string, number> = {}
  const move = (account: string, cents: number) => {
    balances[account] = (balances[account] ?? 0) + cents
  }

  // Opening day: the owner's money, the clients and the vendors (before anything refers to them).
  const opening = dateOf(year, 1, 1)
  steps.push({
    date: opening,
    label: "owner's investment",
    operation: "proposeJournalEntry",
    input: {
      entry_date: opening,
      memo: "Owner's investment",
      lines: [{ account: accounts.checking, debit_cents: 20_000_00 }, { account: accounts.investment, credit_cents: 20_000_00 }]
    }
  })
  move(accounts.checking, 20_000_00)
  move(accounts.investment, 20_000_00)

  for (let index = 0; index < customers; index++) {
    steps.push({
      date: opening,
      label: `client ${clientNames[index]}`,
      operation: "createContact",
      input: { kind: "customer", name: clientNames[index]!, terms_days: random.pick([15, 30, 30, 45]) },
      save: `customer-${index}`
    })
  }
  for (const [key, name, terms] of [["landlord", "Parkside Properties", 0], ["software", "CloudSuite Inc.", 0], ["contractor", "Dev Freelance LLC", 15]] as const) {
    steps.push({ date: opening, label: `vendor ${name}`, operation: "createContact", input: { kind: "vendor", name, terms_days: terms }, save: `vendor-${key}` })
  }

  let invoiceCount = 0
  let billCount = 0
  for (let month = 1; month <= 12; month++) {
    // Rent, billed on the 1st and paid on the 5th.
    const rent = 1_800_00
    const rentBill = `bill-${++billCount}`
    steps.push({
      date: dateOf(year, month, 1),
      label: `rent bill ${month}`,
      operation: "createBill",
      input: ({ saved }) => ({
        contact_id: saved["vendor-landlord"].id,
        doc_date: dateOf(year, month, 1),
        lines: [{ description: "Office rent", account: accounts.rent, amount_cents: rent }]
      }),
      save: rentBill
    })
    steps.push({
      date: dateOf(year, month, 5),
      label: `rent payment ${month}`,
      operation: "makePayment",
      input: ({ saved }) => ({
        contact_id: saved["vendor-landlord"].id,
        payment_date: dateOf(year, month, 5),
        account: accounts.checking,
        applications: [{ document_id: saved[rentBill].id, amount_cents: rent }]
      })
    })
    move(accounts.rent, rent)
    move(accounts.checking, -rent)

    // Software subscriptions, billed and paid the same day.
    const software = 99_00 + random.integer(0, 3) * 20_00
    const softwareBill = `bill-${++billCount}`
    steps.push({
      date: dateOf(year, month, 3),
      label: `software bill ${month}`,
      operation: "createBill",
      input: ({ saved }) => ({
        contact_id: saved["vendor-software"].id,
        doc_date: dateOf(year, month, 3),
        lines: [{ description: "Software subscriptions", account: accounts.software, amount_cents: software }]
      }),
      save: softwareBill
    })
    steps.push({
      date: dateOf(year, month, 3),
      label: `software payment ${month}`,
      operation: "makePayment",
      input: ({ saved }) => ({
        contact_id: saved["vendor-software"].id,
        payment_date: dateOf(year, month, 3),
        account: accounts.checking,
        applications: [{ document_id: saved[softwareBill].id, amount_cents: software }]
      })
    })
    move(accounts.software, software)
    move(accounts.checking, -software)

    // Now and then a contractor, paid on terms; a December bill is still owed at year end.
    if (random.next() < 0.35) {
      const contractor = random.integer(8, 40) * 75_00
      const billDate = dateOf(year, month, random.integer(8, 20))
      const contractorBill = `bill-${++billCount}`
      const paidOn = addDays(billDate, 15)
      steps.push({
        date: billDate,
        label: `contractor bill ${month}`,
        operation: "createBill",
        input: ({ saved }) => ({
          contact_id: saved["vendor-contractor"].id,
          doc_date: billDate,
          lines: [{ description: "Development hours", account: accounts.contractors, amount_cents: contractor }]
        }),
        save: contractorBill
      })
      move(accounts.contractors, contractor)
      if (paidOn <= yearEnd) {
        steps.push({
          date: paidOn,
          label: `contractor payment ${month}`,
          operation: "makePayment",
          input: ({ saved }) => ({
            contact_id: saved["vendor-contractor"].id,
            payment_date: paidOn,
            account: accounts.checking,
            applications: [{ document_id: saved[contractorBill].id, amount_cents: contractor }]
          })
        })
        move(accounts.checking, -contractor)
      } else {
        move(accounts.payable, contractor)
      }
    }

    // Client work: hours invoiced, paid on terms give or take; some in two parts.
    for (let count = random.integer(invoicesMin, invoicesMax); count > 0; count--) {
      const customer = random.integer(0, customers - 1)
      const hours = random.integer(4, 40)
      const total = hours * hourlyRateCents
      const invoiceDate = dateOf(year, month, random.integer(6, 28))
      const invoice = `invoice-${++invoiceCount}`
      steps.push({
        date: invoiceDate,
        label: `invoice ${invoiceCount}`,
        operation: "createInvoice",
        input: ({ saved }) => ({
          contact_id: saved[`customer-${customer}`].id,
          doc_date: invoiceDate,
          lines: [{ description: `Consulting, ${hours} hours`, account: accounts.revenue, quantity: String(hours), unit_price_cents: hourlyRateCents }]
        }),
        save: invoice
      })
      move(accounts.revenue, total)
      const paidOn = addDays(invoiceDate, random.integer(10, 60))
      const parts = random.next() < 0.2 ? [Math.floor(total / 2), total - Math.floor(total / 2)] : [total]
      let received = 0
      parts.forEach((part, index) => {
        const date = addDays(paidOn, index * 14)
        if (date > yearEnd) return
        steps.push({
          date,
          label: `payment ${index + 1} of invoice ${invoiceCount}`,
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
      move(accounts.checking, received)
      move(accounts.receivable, total - received)
    }

    // Month end: the bank's fee, posted by the bookkeeping agent (well under its threshold).
    const lastDay = dateOf(year, month, new Date(Date.UTC(year, month, 0)).getUTCDate())
    steps.push({
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
    move(accounts.bankFees, 15_00)
    move(accounts.checking, -15_00)

    // Quarter end: the owner draws.
    if (month % 3 === 0) {
      const draw = random.integer(10, 30) * 100_00
      steps.push({
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
      move(accounts.draws, -draw)
      move(accounts.checking, -draw)
    }
  }

  // The yearly insurance premium: over the agent's threshold, so it waits for the owner.
  const premiumDate = dateOf(year, 3, 15)
  steps.push({
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
  steps.push({
    date: addDays(premiumDate, 1),
    label: "owner approves the insurance premium",
    operation: "approveProposal",
    input: ({ saved }) => ({ id: saved["insurance-proposal"].proposal.id, reason: "Renewal confirmed with the broker" })
  })
  move(accounts.insurance, 1_450_00)
  move(accounts.checking, -1_450_00)

  return {
    name: `A year of business (${year}, seed ${options.seed ?? 1})`,
    company: { name: "Cedar & Pine Consulting", owner_name: "Jordan Lee", starter_chart: "services", plan: "advanced" },
    agents: [{ name: "bookkeeper", scopes: ["read", "propose"], posting_threshold_cents: 500_00, model: "testkit-bookkeeper/1" }],
    steps,
    expectedBalances: { ...balances, [accounts.payable]: balances[accounts.payable] ?? 0, [accounts.receivable]: balances[accounts.receivable] ?? 0 },
    balancesAsOf: yearEnd
  }
}
