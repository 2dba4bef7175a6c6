import { type AccountKey, type Applied, debitsAt, type Party, postingsOf, random, type SaleLine, taxOn, totalOf, type Txn } from "./model.ts"

/**
 * One year (2025) of a small service and widget business, from a seed: invoices with sales tax
 * paid in full, in part (now and then over, kept unapplied) or left open; sales receipts into
 * Undeposited Funds and the month's deposit of them; rent, utility, supply and materials bills
 * paid by check or card, some left open; checks, card purchases and a card refund; credit memos
 * and vendor credits left to use; transfers, the card's monthly payment, sales tax paid each
 * quarter, journal entries; an old savings account emptied in April and made inactive, a customer
 * and a vendor made inactive after their paid business.
 */

export const asOf = "2025-12-31"
/** The month ends the tests check: each quarter's. */
export const monthEnds = ["2025-03-31", "2025-06-30", "2025-09-30", "2025-12-31"] as const

const day = (month: number, dayOfMonth: number) => `2025-${String(month).padStart(2, "0")}-${String(dayOfMonth).padStart(2, "0")}`
const plus = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
const lastDay = (month: number) => new Date(Date.UTC(2025, month, 0)).toISOString().slice(0, 10)

export interface Year {
  readonly customers: ReadonlyArray<Party>
  readonly vendors: ReadonlyArray<Party>
  /** In date order. */
  readonly txns: ReadonlyArray<Txn>
}

type Rng = ReturnType<typeof random>

interface Builder { readonly rng: Rng; readonly txns: Array<Txn>; next: number }
/** A transaction before it has its id (and, unless given, its number). */
type Draft = Txn extends infer T ? T extends Txn ? Omit<T, "id" | "number"> & { readonly number?: string } : never : never
const add = (builder: Builder, txn: Draft): Txn => {
  const id = String(++builder.next)
  const made = { ...txn, id, number: txn.number ?? id } as Txn
  if (made.date <= asOf) builder.txns.push(made)
  return made
}

const vendorIds = { office: "V1", landlord: "V2", utility: "V3", wholesale: "V4", tax: "V5", printer: "V6" } as const

/** A month's sales: invoices and their payments, sales receipts, now and then a credit memo. */
const sales = (builder: Builder, month: number, perMonth: number, customers: ReadonlyArray<Party>) => {
  const { rng } = builder
  const active = customers.filter((customer) => !customer.inactive)
  for (let n = 0; n < perMonth; n++) {
    // The inactive customer bought in January only, and paid.
    const customer = month === 1 && n === 0 ? customers[customers.length - 1]! : rng.pick(active)
    const lines: Array<SaleLine> = [{ item: "services", cents: rng.int(20, 400) * 2_500 + rng.int(0, 99) }]
    if (rng.next() < 0.5) lines.push({ item: "products", cents: rng.int(1_000, 60_000) })
    const date = day(month, rng.int(1, 28))
    const invoice = add(builder, { type: "invoice", customer: customer.id, date, due: plus(date, 30), lines, tax: taxOn(lines.reduce((a, l) => a + l.cents, 0)), number: `INV-${1000 + builder.next}` })
    const fate = month === 1 && n === 0 ? 0 : rng.next()
    const total = totalOf(invoice)
    const paid = fate < 0.6 ? total : fate < 0.75 ? Math.floor(total / 2) : 0
    if (paid === 0) continue
    // Now and then a customer pays 25.00 over: the payment keeps it unapplied (never the inactive customer, whose balance is 0).
    const over = paid === total && !customer.inactive && rng.next() < 0.12 ? 2_500 : 0
    const applied: Array<Applied> = [{ txn: invoice.id, cents: paid }]
    add(builder, { type: "payment", customer: customer.id, date: plus(date, rng.int(5, 45)), applied, unapplied: over, to: rng.next() < 0.5 ? "undeposited" : "checking" })
  }
  for (let n = 0; n < 2; n++) {
    const lines: Array<SaleLine> = [{ item: rng.pick(["services", "products"] as const), cents: rng.int(2_000, 40_000) }]
    add(builder, { type: "salesReceipt", customer: rng.pick(active).id, date: day(month, rng.int(1, 28)), lines, tax: taxOn(lines[0]!.cents), to: "undeposited", number: `SR-${builder.next + 1}` })
  }
  if (month % 3 === 2) {
    const lines: Array<SaleLine> = [{ item: "services", cents: rng.int(1_000, 20_000) }]
    add(builder, { type: "creditMemo", customer: rng.pick(active).id, date: day(month, rng.int(1, 28)), lines, tax: taxOn(lines[0]!.cents), number: `CM-${builder.next + 1}` })
  }
}

/** A month's costs: bills and their payments, checks, card purchases and the card's payment. */
const costs = (builder: Builder, month: number) => {
  const { rng } = builder
  const rent = add(builder, { type: "bill", vendor: vendorIds.landlord, date: day(month, 1), due: day(month, 5), lines: [{ account: "rent", cents: 240_000 }], number: `R-${month}` })
  add(builder, { type: "billPayment", vendor: vendorIds.landlord, date: day(month, 5), from: "checking", applied: [{ txn: rent.id, cents: 240_000 }] })
  const utility = add(builder, { type: "bill", vendor: vendorIds.utility, date: day(month, 10), due: day(month, 28), lines: [{ account: "utilities", cents: rng.int(15_000, 40_000) }], number: `U-${month}` })
  add(builder, { type: "billPayment", vendor: vendorIds.utility, date: plus(day(month, 10), 31), from: "checking", applied: [{ txn: utility.id, cents: totalOf(utility) }] })
  const supplies = add(builder, { type: "bill", vendor: vendorIds.office, date: day(month, rng.int(1, 20)), due: day(month, 28), lines: [{ account: "supplies", cents: rng.int(3_000, 30_000) }], number: `OS-${month}` })
  const byCard = rng.next() < 0.5
  const part = byCard || rng.next() < 0.7 ? totalOf(supplies) : Math.floor(totalOf(supplies) / 3)
  add(builder, { type: "billPayment", vendor: vendorIds.office, date: byCard ? supplies.date : plus(supplies.date, 20), from: byCard ? "card" : "checking", applied: [{ txn: supplies.id, cents: part }] })
  // Widgets bought for resale (an item line) with freight (an account line), paid a month later.
  const widgets = add(builder, { type: "bill", vendor: vendorIds.wholesale, date: day(month, rng.int(1, 28)), due: day(month, 28), number: `W-${month}`,
    lines: [{ item: "products", cents: rng.int(10_000, 80_000) }, { account: "supplies", cents: rng.int(500, 3_000) }] })
  add(builder, { type: "billPayment", vendor: vendorIds.wholesale, date: plus(widgets.date, 30), from: "checking", applied: [{ txn: widgets.id, cents: totalOf(widgets) }] })
  add(builder, { type: "expense", vendor: null, date: lastDay(month), from: "checking", lines: [{ account: "bankFees", cents: 1_500 }], refund: false })
  for (let n = 0; n < 2; n++) {
    add(builder, { type: "expense", vendor: vendorIds.office, date: day(month, rng.int(1, 28)), from: "card", lines: [{ account: "supplies", cents: rng.int(1_000, 25_000) }], refund: false })
  }
  if (month === 8) add(builder, { type: "expense", vendor: vendorIds.office, date: day(month, 20), from: "card", lines: [{ account: "supplies", cents: 4_321 }], refund: true })
  if (month === 2) add(builder, { type: "expense", vendor: null, date: day(month, 14), from: "checking", lines: [{ account: "equipment", cents: 185_000 }], refund: false, number: "CHK-2001" })
  if (month === 6 || month === 11) {
    add(builder, { type: "vendorCredit", vendor: vendorIds.office, date: day(month, 15), lines: [{ account: "supplies", cents: rng.int(1_000, 9_000) }], number: `VC-${month}` })
  }
  add(builder, { type: "transfer", from: "checking", to: "savings", date: day(month, 15), cents: 50_000 })
}

const cardBalanceOn = (txns: ReadonlyArray<Txn>, date: string) => -(debitsAt(txns, date).get("card") ?? 0)

/** The month's deposit of what waits in Undeposited Funds, the card paid off, sales tax each quarter. */
const monthEnd = (builder: Builder, month: number, year: Year["vendors"]) => {
  const end = lastDay(month)
  const waiting = builder.txns.filter((txn) => (txn.type === "payment" || txn.type === "salesReceipt") && txn.to === "undeposited" && txn.date.slice(5, 7) === end.slice(5, 7))
  const gathered = waiting.map((txn) => ({ txn: txn.id, cents: totalOf(txn), kind: txn.type as "payment" | "salesReceipt" }))
  const other = month % 4 === 0 ? [{ account: "equity" as AccountKey, cents: 100_000 }] : []
  const deposited = new Set(builder.txns.flatMap((txn) => txn.type === "deposit" ? txn.gathered.map((item) => item.txn) : []))
  const fresh = gathered.filter((item) => !deposited.has(item.txn))
  if (fresh.length > 0 || other.length > 0) add(builder, { type: "deposit", to: "checking", date: end, gathered: fresh, other })
  const card = cardBalanceOn(builder.txns, plus(end, -3))
  if (card > 0) add(builder, { type: "cardPayment", from: "checking", date: plus(end, -2), cents: card })
  if (month % 3 === 0 && month < 12) {
    const owed = -(debitsAt(builder.txns, end).get("salesTax") ?? 0)
    if (owed > 0) add(builder, { type: "taxPayment", vendor: year.find((vendor) => vendor.id === vendorIds.tax)!.id, from: "checking", date: plus(end, 20), cents: owed })
  }
}

export const generateYear = (options: { readonly seed?: number; readonly invoicesPerMonth?: number; readonly customers?: number } = {}): Year => {
  const builder: Builder = { rng: random(options.seed ?? 20_250_101), txns: [], next: 100 }
  const customers: Array<Party> = Array.from({ length: options.customers ?? 12 }, (_, index) => ({
    id: `C${index + 1}`, name: `Customer ${String(index + 1).padStart(2, "0")}`, email: `billing@customer-${index + 1}.example`, inactive: index === (options.customers ?? 12) - 1
  }))
  const vendors: Array<Party> = [
    { id: vendorIds.office, name: "Office Depot Supply", email: "ar@office.example", inactive: false },
    { id: vendorIds.landlord, name: "Main Street Properties", email: null, inactive: false },
    { id: vendorIds.utility, name: "City Power & Light", email: null, inactive: false },
    { id: vendorIds.wholesale, name: "Widget Wholesale", email: "orders@widgets.example", inactive: false },
    { id: vendorIds.tax, name: "State Department of Revenue", email: null, inactive: false },
    { id: vendorIds.printer, name: "Old Print Shop", email: null, inactive: true }
  ]
  add(builder, { type: "journal", date: "2025-01-01", number: "OB-1", lines: [{ account: "checking", cents: 2_500_000 }, { account: "oldSavings", cents: 500_000 }, { account: "equity", cents: -3_000_000 }] })
  // The old printer's only bill, paid at once; then the vendor was made inactive.
  const printing = add(builder, { type: "bill", vendor: vendorIds.printer, date: "2025-01-20", due: "2025-02-19", lines: [{ account: "supplies", cents: 12_000 }], number: "P-1" })
  add(builder, { type: "billPayment", vendor: vendorIds.printer, date: "2025-01-25", from: "checking", applied: [{ txn: printing.id, cents: 12_000 }] })
  for (let month = 1; month <= 12; month++) {
    sales(builder, month, options.invoicesPerMonth ?? 8, customers)
    costs(builder, month)
    if (month === 4) add(builder, { type: "transfer", from: "oldSavings", to: "checking", date: "2025-04-15", cents: 500_000 })
    if (month === 9) add(builder, { type: "journal", date: "2025-09-30", number: "ADJ-9", lines: [{ account: "supplies", cents: -7_500 }, { account: "materials", cents: 7_500 }] })
    monthEnd(builder, month, vendors)
  }
  const txns = [...builder.txns].sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : Number(a.id) - Number(b.id))
  for (const txn of txns) {
    const balance = postingsOf(txn).reduce((total, [, cents]) => total + cents, 0)
    if (balance !== 0) throw new Error(`generated ${txn.type} ${txn.id} does not balance (${balance})`)
  }
  return { customers, vendors, txns }
}
