import { expect201, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { createClass, credit, debit, post, reverse, setFiscalYearStart } from "./support.ts"

/**
 * A small business over two fiscal years (July to June), whose reports are computed BY HAND below:
 * every expected figure is a literal with its arithmetic in a comment. Today is 2026-03-15, in
 * fiscal year 2026 (2025-07-01 to 2026-06-30); fiscal year 2025 ran 2024-07-01 to 2025-06-30.
 *
 * Chart: the `general` starter chart. Classes: East and West. AR (1100) and AP (2000) move only
 * through documents and payments (ADR 0106), so the sales on account are invoices, the stock
 * bought on account bills, and their settlements payments: each posts the same accounts, sides
 * and amounts the plain entries did (an invoice's sales tax is a line on 2200, no tax rate).
 */

/** The example's today: the app's clock is set here. */
export const exampleClock = "2026-03-15T12:00:00Z"

/*
 * Hand computation, in cents.
 *
 * 1010 Business Checking, fiscal year 2025:
 *   5,000,000 (E1) - 200,000 (E4) + 1,080,000 (E7) - 423,500 (E8) - 800,000 (E9) + 650,000 (E10)
 *   - 150,000 (E11) - 114,750 (E13) - 99,999 (E14) + 99,999 (E15) + 216,000 (E16) - 80,000 (E17)
 *   = 5,177,750 at 2025-06-30
 * fiscal year 2026 to 2026-03-15:
 *   - 210,000 (E18) - 465,850 (E22) + 1,000,000 (E23) - 200,000 (E25) - 327,540 (E26) - 31,015 (E27)
 *   - 300,000 (E28) - 126,225 (E30) + 400,000 (E31) - 10,000 (E32) - 25,000 (E33) + 25,000 (E34)
 *   = -270,630, so 5,177,750 - 270,630 = 4,907,120 at 2026-03-15
 * 1100 AR: 1,080,000 - 1,080,000 (FY2025) + 1,620,000 - 1,000,000 + 325,000 = 945,000
 * 1300 Inventory: 800,000 - 400,000 + 500,000 - 600,000 = 300,000
 * 1500 Equipment: 300,000
 * 2000 AP: 800,000 - 800,000 + 500,000 - 300,000 = 200,000 (credit)
 * 2100 Card: 300,000 + 27,540 - 327,540 + 45,000 = 45,000 (credit)
 * 2200 Sales tax: 80,000 + 16,000 - 80,000 + 120,000 = 136,000 (credit)
 * 2310 Payroll taxes: 114,750 - 114,750 + 126,225 - 126,225 = 0 (not shown)
 * 3010 Owner's investment: 5,000,000 (credit)
 * 3020 Draws: 150,000 + 200,000 = 350,000 (debit)
 *
 * Fiscal year 2025 profit and loss:
 *   income 4000: 1,000,000 + 200,000 = 1,200,000; 4100: 650,000; total 1,850,000
 *   cost of goods sold 5000: 400,000; gross profit 1,850,000 - 400,000 = 1,450,000
 *   expenses 6080 200,000 + 6110 500,000 + 6120 38,250 + 6220 27,540 = 765,790 (6070: 99,999 - 99,999 = 0)
 *   net income 1,450,000 - 765,790 = 684,210
 * Fiscal year 2026 to date:
 *   income 4000: 1,500,000; 4100: 325,000 + 400,000 = 725,000; total 2,225,000
 *   cost of goods sold 5000: 600,000; gross profit 1,625,000
 *   expenses 6070 45,000 (+25,000 - 25,000) + 6080 210,000 + 6110 550,000 + 6120 42,075 + 6220 31,015 = 878,090
 *   net income 1,625,000 - 878,090 = 746,910
 * 3900 Retained earnings at 2026-03-15: 684,210 (fiscal 2025 closed) - 10,000 (E32) = 674,210 (credit)
 */

/** What the example books with, each entry kept under its name (E1 to E34). */
interface Books {
  readonly entries: Record<string, number>
  /** A plain journal entry. */
  readonly book: (name: string, date: string, memo: string, lines: Parameters<typeof post>[4]) => Promise<void>
  /** A document (invoice or bill) on account: its entry is named `name`. */
  readonly document: (name: string, kind: "invoices" | "bills", date: string, memo: string, lines: ReadonlyArray<DocumentLine>) => Promise<void>
  /** A payment received or made from 1010, applied in full to the document named `of`. */
  readonly payment: (name: string, direction: "received" | "made", date: string, memo: string, of: string, cents: number) => Promise<void>
  /** The exact reversal of the entry named `of`. */
  readonly reverse: (name: string, of: string, date: string) => Promise<void>
}

type DocumentLine = { readonly account: string; readonly amount_cents: number; readonly class?: string }

/** The example's customer and vendor, and the ways it books, as the company's owner. */
const booksOf = async (app: TestApp, company: TestCompany): Promise<Books> => {
  const entries: Record<string, number> = {}
  const token = company.ownerKey
  const write = async (what: string, path: string, body: Record<string, unknown>) =>
    expect201(what, await app.call("POST", path, { token, key: newKey(), body }))
  const customer = (await write("customer", "/v1/contacts", { kind: "customer", name: "Dockside Traders" })).id as number
  const vendor = (await write("vendor", "/v1/contacts", { kind: "vendor", name: "Bay Wholesale" })).id as number
  const documents: Record<string, number> = {}
  return {
    entries,
    book: async (name, date, memo, lines) => {
      entries[name] = await post(app, token, date, memo, lines)
    },
    document: async (name, kind, date, memo, lines) => {
      const created = await write(name, `/v1/${kind}`, { contact_id: kind === "invoices" ? customer : vendor, doc_date: date, memo, lines })
      documents[name] = created.id
      entries[name] = created.entry_id
    },
    payment: async (name, direction, date, memo, of, cents) => {
      const created = await write(name, `/v1/payments/${direction}`, {
        contact_id: direction === "received" ? customer : vendor,
        payment_date: date,
        memo,
        account: "1010",
        amount_cents: cents,
        applications: [{ document_id: documents[of], amount_cents: cents }]
      })
      entries[name] = created.entry_id
    },
    reverse: async (name, of, date) => {
      entries[name] = await reverse(app, token, entries[of]!, date)
    }
  }
}

/** Fiscal year 2025 (2024-07-01 to 2025-06-30): E1 to E17. */
const bookFiscalYear2025 = async (books: Books): Promise<void> => {
  await books.book("E1", "2024-07-01", "Owner invests", [debit("1010", 5_000_000), credit("3010", 5_000_000)])
  await books.book("E2", "2024-07-05", "Shelving on the card", [debit("1500", 300_000), credit("2100", 300_000)])
  await books.document("E3", "bills", "2024-07-15", "Stock bought on account", [{ account: "1300", amount_cents: 800_000 }])
  await books.book("E4", "2024-08-01", "August rent", [debit("6080", 200_000, "East"), credit("1010", 200_000)])
  await books.document("E5", "invoices", "2024-08-20", "Sale on account", [
    { account: "4000", amount_cents: 1_000_000, class: "East" },
    { account: "2200", amount_cents: 80_000 }
  ])
  await books.book("E6", "2024-08-20", "Cost of that sale", [debit("5000", 400_000, "East"), credit("1300", 400_000)])
  await books.payment("E7", "received", "2024-09-10", "Customer pays", "E5", 1_080_000)
  await books.book("E8", "2024-09-30", "September payroll", [
    debit("6110", 500_000, "West"), debit("6120", 38_250, "West"), credit("1010", 423_500), credit("2310", 114_750)
  ])
  await books.payment("E9", "made", "2024-10-15", "Pay the stock supplier", "E3", 800_000)
  await books.book("E10", "2024-11-05", "Installation job, paid", [debit("1010", 650_000), credit("4100", 650_000, "West")])
  await books.book("E11", "2024-12-01", "Owner draw", [debit("3020", 150_000), credit("1010", 150_000)])
  await books.book("E12", "2025-01-15", "Electricity", [debit("6220", 27_540), credit("2100", 27_540)])
  await books.book("E13", "2025-02-10", "Payroll taxes paid", [debit("2310", 114_750), credit("1010", 114_750)])
  await books.book("E14", "2025-03-31", "Supplies (posted in error)", [debit("6070", 99_999), credit("1010", 99_999)])
  await books.reverse("E15", "E14", "2025-04-02")
  await books.book("E16", "2025-05-20", "Counter sale", [debit("1010", 216_000), credit("4000", 200_000, "West"), credit("2200", 16_000)])
  await books.book("E17", "2025-06-30", "Sales tax paid", [debit("2200", 80_000), credit("1010", 80_000)])
}

/** Fiscal year 2026 to today (2025-07-01 to 2026-03-15): E18 to E34. */
const bookFiscalYear2026 = async (books: Books): Promise<void> => {
  await books.book("E18", "2025-07-01", "July rent", [debit("6080", 210_000, "East"), credit("1010", 210_000)])
  await books.document("E19", "bills", "2025-07-10", "Stock bought on account", [{ account: "1300", amount_cents: 500_000 }])
  await books.document("E20", "invoices", "2025-08-05", "Sale on account", [
    { account: "4000", amount_cents: 1_500_000, class: "East" },
    { account: "2200", amount_cents: 120_000 }
  ])
  await books.book("E21", "2025-08-05", "Cost of that sale", [debit("5000", 600_000, "East"), credit("1300", 600_000)])
  await books.book("E22", "2025-09-30", "September payroll", [
    debit("6110", 550_000, "West"), debit("6120", 42_075, "West"), credit("1010", 465_850), credit("2310", 126_225)
  ])
  await books.payment("E23", "received", "2025-10-01", "Customer pays part", "E20", 1_000_000)
  await books.document("E24", "invoices", "2025-10-20", "Service on account", [{ account: "4100", amount_cents: 325_000, class: "West" }])
  await books.book("E25", "2025-11-30", "Owner draw", [debit("3020", 200_000), credit("1010", 200_000)])
  await books.book("E26", "2025-12-15", "Card paid off", [debit("2100", 327_540), credit("1010", 327_540)])
  await books.book("E27", "2026-01-10", "Electricity", [debit("6220", 31_015), credit("1010", 31_015)])
  await books.payment("E28", "made", "2026-01-31", "Supplier paid in part", "E19", 300_000)
  await books.book("E29", "2026-02-14", "Printer ink", [debit("6070", 45_000, "East"), credit("2100", 45_000)])
  await books.book("E30", "2026-02-28", "Payroll taxes paid", [debit("2310", 126_225), credit("1010", 126_225)])
  await books.book("E31", "2026-03-01", "Repair job, paid", [debit("1010", 400_000), credit("4100", 400_000, "East")])
  await books.book("E32", "2026-03-10", "Prior-year correction", [debit("3900", 10_000), credit("1010", 10_000)])
  await books.book("E33", "2026-03-12", "Supplies (posted in error)", [debit("6070", 25_000), credit("1010", 25_000)])
  await books.reverse("E34", "E33", "2026-03-13")
}

/** Creates the example company in `app` and books its two years; answers it and its entries' ids by name (E1 to E34). */
export const bookExampleCompany = async (app: TestApp): Promise<{ readonly company: TestCompany; readonly entries: Record<string, number> }> => {
  const company = await app.createCompany({ name: "Harbor Supply Co", starter_chart: "general" })
  await setFiscalYearStart(app, company, 7)
  await createClass(app, company.ownerKey, "East")
  await createClass(app, company.ownerKey, "West")
  const books = await booksOf(app, company)
  await bookFiscalYear2025(books)
  await bookFiscalYear2026(books)
  return { company, entries: books.entries }
}
