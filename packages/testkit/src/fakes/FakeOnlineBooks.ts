import { randomBytes } from "node:crypto"
import type { Layer } from "effect"
import type { OnlineBooks } from "@ledger/engine/ports"
import { OnlineBooksHttp } from "@ledger/server"
import * as IntuitOAuth from "./FakeIntuitOAuth.ts"

/**
 * The online edition's fake: its v3 REST API (OAuth token endpoint, the query endpoint with
 * `SELECT COUNT(*)` and `STARTPOSITION n MAXRESULTS m`, revoke) served in memory over a company a
 * test fills, so the real adapter (@ledger/server `OnlineBooksHttp`) runs against it; its OAuth
 * server (FakeIntuitOAuth.ts) ends access tokens after their hour of the test's clock and rotates
 * refresh tokens. It counts
 * the calls it answers; `generateYear` fills a company with a year of balanced transactions whose
 * account balances match, as the online edition's own would.
 */

type Json = Record<string, any>

export interface FakeOnlineBooks {
  readonly layer: Layer.Layer<OnlineBooks>
  readonly fetch: (request: Request) => Promise<Response>
  readonly company: Record<string, Array<Json>>
  /** The person consents: the code and realm the provider sends back with the state. */
  readonly consent: (consentUrl: string) => { readonly state: string; readonly code: string; readonly realmId: string }
  readonly calls: () => number
  /** The next API call is refused as the service refuses it: throttled (429, Retry-After), a query fault (400), down (503), or cut off (a malformed 200). */
  readonly failNext: (failure: "throttle" | "validation" | "unavailable" | "malformed") => void
  readonly revoked: ReadonlyArray<string>
  /** Refresh-token grants answered. */
  readonly refreshes: () => number
  /** The person disconnects the app at the provider: every grant ends (a refresh is then `invalid_grant`). */
  readonly disconnect: () => void
  /** Every access token ends now, before its hour: the next call with one is refused 401 AuthenticationFailed. */
  readonly endAccessTokens: () => void
  /** Fills the company with `months` months of invoices, payments, bills and bill payments from `start` (YYYY-MM). */
  readonly generateYear: (options?: { readonly start?: string; readonly months?: number; readonly perMonth?: number; readonly customers?: number }) => void
}

const realmId = "9130350000000001"
const money = (cents: number) => Number((cents / 100).toFixed(2))

type Failure = "throttle" | "validation" | "unavailable" | "malformed"
interface State { company: Record<string, Array<Json>>; oauth: IntuitOAuth.State; calls: number; failing: Array<Failure>; callTakesMs: number; advance: (ms: number) => void }

const clientBasic = `Basic ${btoa("client:secret")}`
/** An answer of the v3 API: its envelope carries the time. */
const intuit = (status: number, body: Json, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ ...body, time: new Date().toISOString() }), { status, headers: { "content-type": "application/json", ...headers } })
/** The API's refusal, as the v3 XSDs describe it: a Fault listing its Errors, each with a code. */
const fault = (status: number, type: string, code: string, message: string, detail: string, headers: Record<string, string> = {}) =>
  intuit(status, { Fault: { Error: [{ Message: message, Detail: detail, code }], type } }, headers)
const queryFault = (detail: string) => fault(400, "ValidationFault", "4000", "message=QueryParserError; errorCode=004000; statusCode=400", detail)

/**
 * An entity's records as the query answers them: as the service does, a name list (accounts,
 * customers, vendors, items) leaves out inactive records unless the statement asks for them
 * (`WHERE Active IN (true, false)`).
 */
const listed = (state: State, entity: string, withInactive: boolean): Array<Json> =>
  (state.company[entity] ?? []).filter((record) => withInactive || record.Active !== false)

const handler = (state: State) =>
  async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const granted = await IntuitOAuth.answer(state.oauth, request, url, clientBasic)
    if (granted !== null) return granted
    // Each API call takes this long of the test's clock, so an extraction can outlive its token.
    state.advance(state.callTakesMs)
    if (!IntuitOAuth.accessOpens(state.oauth, (request.headers.get("authorization") ?? "").replace(/^Bearer /, ""))) {
      return fault(401, "AUTHENTICATION", "3200", "message=AuthenticationFailed; errorCode=003200; statusCode=401", "Token revoked or expired")
    }
    const match = /^\/v3\/company\/([^/]+)\/query$/.exec(url.pathname)
    if (match === null) return fault(404, "SERVICE", "610", "Object Not Found", `No resource at ${url.pathname}`)
    if (match[1] !== realmId) return fault(403, "AUTHORIZATION", "3100", "message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403", "The token does not open this company")
    const failing = state.failing.shift()
    if (failing === "throttle") return fault(429, "SERVICE", "3001", "message=ThrottleExceeded; errorCode=003001; statusCode=429", "The request limit was reached.", { "retry-after": "60" })
    // A page cut off in transit: a 200 whose body is not whole JSON.
    if (failing === "malformed") return new Response('{"QueryResponse":{"Invoice":[{"Id":"1"', { status: 200, headers: { "content-type": "application/json" } })
    if (failing === "unavailable") return fault(503, "SERVICE", "10000", "An application error has occurred while processing your request", "System Failure Error")
    state.calls++
    const text = url.searchParams.get("query") ?? ""
    if (failing === "validation") return queryFault(`Error parsing query: ${text}`)
    const count = /^SELECT COUNT\(\*\) FROM (\w+)( WHERE Active IN \(true, ?false\))?$/i.exec(text)
    if (count !== null) return intuit(200, { QueryResponse: { totalCount: listed(state, count[1]!, count[2] !== undefined).length } })
    const page = /^SELECT \* FROM (\w+)( WHERE Active IN \(true, ?false\))? STARTPOSITION (\d+) MAXRESULTS (\d+)$/i.exec(text)
    if (page === null) return queryFault(`Error parsing query: ${text}`)
    if (Number(page[3]) < 1) return queryFault("STARTPOSITION starts at 1")
    const start = Number(page[3]) - 1
    const rows = listed(state, page[1]!, page[2] !== undefined).slice(start, start + Math.min(1000, Number(page[4])))
    // Past the end the service answers an empty QueryResponse, not an empty list.
    return intuit(200, { QueryResponse: rows.length === 0 ? {} : { [page[1]!]: rows, startPosition: start + 1, maxResults: rows.length } })
  }


/** A year of balanced business: the accounts' balances and the parties' open balances are what the transactions make. */
/** The transaction entities a generated year holds, each an empty list before the year is filled. */
const transactionEntities = ["Invoice", "Payment", "Bill", "BillPayment", "SalesReceipt", "RefundReceipt", "CreditMemo", "Deposit", "Transfer", "Purchase", "VendorCredit"] as const

interface Everyday {
  readonly id: string
  readonly txnDate: string
  readonly amount: number
  readonly add: (account: string, cents: number) => void
  /** The customer's and the vendor's balances go down by these. */
  readonly customer: (cents: number) => void
  readonly vendor: (cents: number) => void
}

/**
 * A month's everyday transactions of each other posting type, as the online edition's v3 API
 * answers them (issue 39 item 11): a sales receipt into Undeposited Funds and its deposit, a
 * refund receipt, a credit memo, a transfer, a check and a card purchase (and a card refund), a
 * vendor credit. `add` keeps the balances the tie-out compares.
 */
const everyday = (company: Record<string, Array<Json>>, day: Everyday) => {
  const { id, txnDate, add } = day
  const sale = Math.floor(day.amount / 2)
  const item = (amount: number) => ({ Amount: money(amount), DetailType: "SalesItemLineDetail", SalesItemLineDetail: { ItemRef: { value: "1" } } })
  const expense = (amount: number, account = "6000") => ({ Amount: money(amount), DetailType: "AccountBasedExpenseLineDetail", AccountBasedExpenseLineDetail: { AccountRef: { value: account } } })
  company.SalesReceipt!.push({ Id: `SR${id}`, TxnDate: txnDate, TotalAmt: money(sale), DepositToAccountRef: { value: "1499" }, Line: [item(sale)] })
  add("1499", sale)
  add("4000", sale)
  company.Deposit!.push({ Id: `D${id}`, TxnDate: txnDate, TotalAmt: money(sale + 5_000), DepositToAccountRef: { value: "1000" }, Line: [
    { Amount: money(sale), LinkedTxn: [{ TxnId: `SR${id}`, TxnType: "SalesReceipt" }] },
    { Amount: money(5_000), DetailType: "DepositLineDetail", DepositLineDetail: { AccountRef: { value: "3000" } } }
  ] })
  add("1000", sale + 5_000)
  add("1499", -sale)
  add("3000", 5_000)
  const refund = Math.floor(sale / 10)
  company.RefundReceipt!.push({ Id: `RR${id}`, TxnDate: txnDate, TotalAmt: money(refund), DepositToAccountRef: { value: "1000" }, Line: [item(refund)] })
  add("4000", -refund)
  add("1000", -refund)
  const credit = Math.floor(day.amount / 20)
  company.CreditMemo!.push({ Id: `CM${id}`, TxnDate: txnDate, TotalAmt: money(credit), RemainingCredit: money(credit), CustomerRef: { value: "58" }, Line: [item(credit)] })
  add("4000", -credit)
  add("1200", -credit)
  day.customer(credit)
  company.Transfer!.push({ Id: `T${id}`, TxnDate: txnDate, Amount: money(20_000), FromAccountRef: { value: "1000" }, ToAccountRef: { value: "1010" } })
  add("1000", -20_000)
  add("1010", 20_000)
  const check = 3_000 + (Number(id) % 700)
  company.Purchase!.push({ Id: `PC${id}`, TxnDate: txnDate, PaymentType: "Check", TotalAmt: money(check), AccountRef: { value: "1000" }, Line: [expense(check)] })
  add("6000", check)
  add("1000", -check)
  company.Purchase!.push({ Id: `PK${id}`, TxnDate: txnDate, PaymentType: "CreditCard", TotalAmt: money(1_999), AccountRef: { value: "2100" }, Line: [expense(1_999)] })
  add("6000", 1_999)
  add("2100", 1_999)
  company.Purchase!.push({ Id: `PR${id}`, TxnDate: txnDate, PaymentType: "CreditCard", Credit: true, TotalAmt: money(499), AccountRef: { value: "2100" }, Line: [expense(499)] })
  add("6000", -499)
  add("2100", -499)
  const vendorCredit = 1_250
  company.VendorCredit!.push({ Id: `VC${id}`, TxnDate: txnDate, TotalAmt: money(vendorCredit), Balance: money(vendorCredit), VendorRef: { value: "41" }, APAccountRef: { value: "2000" }, Line: [expense(vendorCredit)] })
  add("6000", -vendorCredit)
  add("2000", -vendorCredit)
  day.vendor(vendorCredit)
}

const fillYear = (company: Record<string, Array<Json>>, settings: Parameters<FakeOnlineBooks["generateYear"]>[0] = {}) => {
  const [year, firstMonth] = (settings.start ?? "2025-01").split("-").map(Number) as [number, number]
  const months = settings.months ?? 12
  const perMonth = settings.perMonth ?? 20
  const balances = new Map<string, number>()
  const add = (account: string, cents: number) => balances.set(account, (balances.get(account) ?? 0) + cents)
  company.Customer = [{ Id: "58", DisplayName: "Amy's Bird Sanctuary", Balance: 0 },
  ...Array.from({ length: Math.max(0, (settings.customers ?? 1) - 1) }, (_, index) => ({ Id: String(1000 + index), DisplayName: `Customer ${index}`, Balance: 0 }))]
  company.Vendor = [{ Id: "41", DisplayName: "Books by Bessie", Balance: 0 }]
  company.Item = [{ Id: "1", Name: "Services", IncomeAccountRef: { value: "4000", name: "Services" } }]
  for (const entity of transactionEntities) company[entity] = []
  company.JournalEntry = [{ Id: "1", TxnDate: `${year}-${String(firstMonth).padStart(2, "0")}-01`, Line: [
    { Amount: 10_000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: "1000" } } },
    { Amount: 10_000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "3000" } } }
  ] }]
  add("1000", 1_000_000)
  add("3000", 1_000_000)
  let ar = 0
  let ap = 0
  let sequence = 100
  for (let m = 0; m < months; m++) {
    const date = new Date(Date.UTC(year, firstMonth - 1 + m, 1))
    for (let n = 0; n < perMonth; n++) {
      const day = String(1 + (n % 27)).padStart(2, "0")
      const txnDate = `${date.toISOString().slice(0, 7)}-${day}`
      const amount = 10_000 + ((sequence * 7919) % 90_000)
      const id = String(sequence++)
      // What is left to pay, as the service keeps it: the invoices of every third are never paid.
      company.Invoice!.push({ Id: id, TxnDate: txnDate, DocNumber: `INV-${id}`, TotalAmt: money(amount), Balance: n % 3 === 0 ? money(amount) : 0, CustomerRef: { value: "58" },
        Line: [{ Amount: money(amount), DetailType: "SalesItemLineDetail", SalesItemLineDetail: { ItemRef: { value: "1" } } }, { Amount: money(amount), DetailType: "SubTotalLineDetail" }] })
      add("1200", amount)
      add("4000", amount)
      ar += amount
      if (n % 3 !== 0) {
        company.Payment!.push({ Id: `P${id}`, TxnDate: txnDate, TotalAmt: money(amount), DepositToAccountRef: { value: "1000" } })
        add("1000", amount)
        add("1200", -amount)
        ar -= amount
      }
      const cost = Math.floor(amount / 3)
      company.Bill!.push({ Id: `B${id}`, TxnDate: txnDate, TotalAmt: money(cost), Balance: n % 2 === 0 ? 0 : money(cost), VendorRef: { value: "41" }, APAccountRef: { value: "2000" },
        Line: [{ Amount: money(cost), DetailType: "AccountBasedExpenseLineDetail", AccountBasedExpenseLineDetail: { AccountRef: { value: "6000" } } }] })
      add("6000", cost)
      add("2000", cost)
      ap += cost
      if (n === 0) everyday(company, { id, txnDate, amount, add, customer: (cents) => { ar -= cents }, vendor: (cents) => { ap -= cents } })
      if (n % 2 === 0) {
        company.BillPayment!.push({ Id: `BP${id}`, TxnDate: txnDate, TotalAmt: money(cost), PayType: "Check", CheckPayment: { BankAccountRef: { value: "1000" } } })
        add("2000", -cost)
        add("1000", -cost)
        ap -= cost
      }
    }
  }
  const account = (Id: string, Name: string, AccountType: string, balance: number) => ({ Id, Name, AcctNum: Id, AccountType, Active: true, CurrentBalance: money(balance) })
  company.Account = [
    account("1000", "Checking", "Bank", balances.get("1000") ?? 0),
    account("1200", "Accounts Receivable (A/R)", "Accounts Receivable", balances.get("1200") ?? 0),
    account("2000", "Accounts Payable (A/P)", "Accounts Payable", balances.get("2000") ?? 0),
    account("3000", "Opening Balance Equity", "Equity", balances.get("3000") ?? 0),
    account("4000", "Services", "Income", balances.get("4000") ?? 0),
    account("6000", "Supplies", "Expense", balances.get("6000") ?? 0),
    account("1010", "Savings", "Bank", balances.get("1010") ?? 0),
    account("2100", "Business Card", "Credit Card", balances.get("2100") ?? 0),
    { ...account("1499", "Undeposited Funds", "Other Current Asset", balances.get("1499") ?? 0), AccountSubType: "UndepositedFunds" }
  ]
  company.Customer[0]!.Balance = money(ar)
  company.Vendor[0]!.Balance = money(ap)
}


export const make = (options: {
  readonly monthlyReadBudget?: number
  /** The test's clock (the app's `ManualClock`): access tokens end `expires_in` after their grant by it. */
  readonly clock?: IntuitOAuth.FakeClock & { readonly advance?: (ms: number) => void }
  /** How much of that clock each API call takes (default none). */
  readonly callTakesMs?: number
} = {}): FakeOnlineBooks => {
  const clock = options.clock ?? { now: () => Date.now() }
  const state: State = {
    company: {}, oauth: IntuitOAuth.makeState(clock), calls: 0, failing: [], callTakesMs: options.callTakesMs ?? 0,
    advance: (ms) => {
      if (ms > 0) clock.advance?.(ms)
    }
  }
  const handle = handler(state)

  return {
    layer: OnlineBooksHttp.layer({
      baseUrl: "https://online-books.fake",
      clientId: "client",
      clientSecret: "secret",
      appUrl: "https://ledger.fake",
      monthlyReadBudget: options.monthlyReadBudget ?? 500_000,
      fetch: handle
    }),
    fetch: handle,
    company: state.company,
    consent: (consentUrl) => {
      const url = new URL(consentUrl)
      if (url.pathname !== "/connect/oauth2") throw new Error(`Intuit's authorization endpoint is /connect/oauth2, not ${url.pathname}`)
      // Intuit refuses a scope it does not have (there is no read-only accounting scope).
      if (url.searchParams.get("scope") !== "com.intuit.quickbooks.accounting") throw new Error(`invalid_scope: ${url.searchParams.get("scope")}`)
      const code = `AB11${randomBytes(8).toString("hex")}`
      state.oauth.codes.add(code)
      return { state: url.searchParams.get("state") ?? "", code, realmId }
    },
    calls: () => state.calls,
    failNext: (failure) => {
      state.failing.push(failure)
    },
    revoked: state.oauth.revoked,
    refreshes: () => state.oauth.refreshes,
    disconnect: () => IntuitOAuth.disconnect(state.oauth),
    endAccessTokens: () => IntuitOAuth.endAccessTokens(state.oauth),
    generateYear: (settings) => fillYear(state.company, settings)
  }
}
