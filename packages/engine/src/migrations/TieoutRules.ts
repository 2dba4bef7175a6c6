import type { AccountType, SourceAccount, SourceItem, SourceLine, SourceOpenItem, SourceParty, SourceTxn } from "./Staging.ts"

/**
 * The tie-out (pure, ADR 1612): every source transaction resolved to accounts, the trial balance
 * it builds at every month end, the final balances against the source's own account balances, and
 * the AR and AP totals against the customers' and vendors' open balances, and (the desktop edition)
 * the open documents against both (ADR 2111). Any difference fails it.
 */

export interface Bundle {
  readonly accounts: ReadonlyArray<SourceAccount>
  readonly customers: ReadonlyArray<SourceParty>
  readonly vendors: ReadonlyArray<SourceParty>
  readonly items: ReadonlyArray<SourceItem>
  readonly txns: ReadonlyArray<SourceTxn>
  /** Open invoices, bills and credits (the desktop edition's extraction; absent for the online edition). */
  readonly open?: ReadonlyArray<SourceOpenItem>
}

export interface ResolvedTxn {
  readonly id: string
  readonly type: string
  readonly date: string
  readonly ref: string | null
  /** Source account id and signed cents (debit positive), zero lines dropped. */
  readonly lines: ReadonlyArray<{ readonly account: string; readonly cents: number }>
}

export interface Difference { readonly account: string; readonly name: string; readonly source_cents: number; readonly computed_cents: number }

export interface Tieout {
  readonly passed: boolean
  readonly as_of: string
  readonly months: ReadonlyArray<{ readonly month_end: string; readonly passed: boolean; readonly differences: ReadonlyArray<Difference> }>
  readonly ar_aging: { readonly source_cents: number; readonly computed_cents: number; readonly passed: boolean }
  readonly ap_aging: { readonly source_cents: number; readonly computed_cents: number; readonly passed: boolean }
  /** Transactions that could not be resolved or do not balance: never imported. */
  readonly unresolved: ReadonlyArray<{ readonly id: string; readonly reason: string }>
  /**
   * The open documents against AR and AP and against each customer's and vendor's balance (ADR
   * 2111): the import carries AR and AP by them, so they must add up to both. Absent when the
   * extraction reads no open documents (the online edition, desktop extractions before it).
   */
  readonly open_documents?: OpenDocuments
  /** The extraction's trial balance at each month end (source account id to natural cents): what the import must reproduce. */
  readonly balances: Readonly<Record<string, Readonly<Record<string, number>>>>
}

export interface OpenDocuments {
  readonly passed: boolean
  readonly ar: { readonly control_cents: number; readonly documents_cents: number }
  readonly ap: { readonly control_cents: number; readonly documents_cents: number }
  /** Customers and vendors whose balance is not what their open documents add up to. */
  readonly parties: ReadonlyArray<{ readonly id: string; readonly name: string; readonly balance_cents: number; readonly documents_cents: number }>
  /** Open documents naming a customer or vendor the extraction does not have. */
  readonly orphans: ReadonlyArray<string>
}

/** AR for a customer's open items, AP for a vendor's. */
export const sideOf = (kind: SourceOpenItem["kind"]): "ar" | "ap" => kind === "invoice" || kind === "credit_memo" || kind === "payment_received" ? "ar" : "ap"
/** What an open item adds to its side's balance: a document what is owed, a credit or an unapplied payment less. */
export const signedOpen = (item: SourceOpenItem): number => item.kind === "invoice" || item.kind === "bill" ? item.openCents : -item.openCents

/** The open documents against the AR and AP balances (natural sign) and against each party's balance. */
export const openDocuments = (bundle: Bundle, control: { readonly ar: number; readonly ap: number }): OpenDocuments => {
  const items = bundle.open ?? []
  const parties = new Map([...bundle.customers.map((party) => ["ar", party] as const), ...bundle.vendors.map((party) => ["ap", party] as const)]
    .flatMap(([side, party]) => [[`${side}:${party.id}`, party], [`${side}:${party.name}`, party]] as const))
  const byParty = new Map<SourceParty, number>()
  const totals = { ar: 0, ap: 0 }
  const orphans: Array<string> = []
  for (const item of items) {
    const side = sideOf(item.kind)
    totals[side] += signedOpen(item)
    const party = item.party === null ? undefined : parties.get(`${side}:${item.party}`)
    if (party === undefined) orphans.push(`${item.kind}:${item.id}`)
    else byParty.set(party, (byParty.get(party) ?? 0) + signedOpen(item))
  }
  const differing = [...bundle.customers, ...bundle.vendors]
    .filter((party) => (byParty.get(party) ?? 0) !== party.balanceCents)
    .map((party) => ({ id: party.id, name: party.name, balance_cents: party.balanceCents, documents_cents: byParty.get(party) ?? 0 }))
  const ar = { control_cents: control.ar, documents_cents: totals.ar }
  const ap = { control_cents: control.ap, documents_cents: totals.ap }
  const passed = ar.control_cents === ar.documents_cents && ap.control_cents === ap.documents_cents && differing.length === 0 && orphans.length === 0
  return { passed, ar, ap, parties: differing, orphans }
}

export const naturalSign = (type: AccountType): 1 | -1 => type === "asset" || type === "expense" ? 1 : -1

/** Resolves each line to a source account: its own, its item's, or the sales tax payable. */
export const resolve = (bundle: Bundle) => {
  const byId = new Map(bundle.accounts.map((account) => [account.id, account]))
  const byName = new Map(bundle.accounts.map((account) => [account.name, account]))
  const items = new Map(bundle.items.flatMap((item) => [[item.id, item], [item.name, item]] as const))
  const salesTax = bundle.accounts.find((account) => account.special === "sales_tax")
  const accountOf = (line: SourceLine): SourceAccount | undefined => {
    if (line.tax) return salesTax
    const side = line.itemSide ?? (line.cents < 0 ? "sales" : "purchase")
    const reference = line.account ?? (line.item === null ? null : side === "sales" ? items.get(line.item)?.income : items.get(line.item)?.expense) ?? null
    return reference === null ? undefined : byId.get(reference) ?? byName.get(reference)
  }
  const resolved: Array<ResolvedTxn> = []
  const unresolved: Array<{ id: string; reason: string }> = []
  for (const txn of bundle.txns) {
    const lines: Array<{ account: string; cents: number }> = []
    let missing = false
    for (const line of txn.lines) {
      if (line.cents === 0) continue
      const account = accountOf(line)
      if (account === undefined || account.type === null) missing = true
      else lines.push({ account: account.id, cents: line.cents })
    }
    const sum = lines.reduce((total, line) => total + line.cents, 0)
    if (missing) unresolved.push({ id: `${txn.type}:${txn.id}`, reason: "a line names an account or item the extraction does not have" })
    else if (sum !== 0) unresolved.push({ id: `${txn.type}:${txn.id}`, reason: `debits and credits differ by ${sum} cents` })
    else if (lines.length >= 2) resolved.push({ id: txn.id, type: txn.type, date: txn.date, ref: txn.ref, lines })
  }
  resolved.sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1)
  return { resolved, unresolved }
}

/** The last day of each month from the first transaction's month to the as-of date's, and the as-of date. */
export const monthEnds = (first: string | null, asOf: string): ReadonlyArray<string> => {
  if (first === null || first > asOf) return [asOf]
  const ends: Array<string> = []
  let year = Number(first.slice(0, 4))
  let month = Number(first.slice(5, 7))
  for (;;) {
    const end = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
    if (end >= asOf) break
    ends.push(end)
    month++
    if (month > 12) { month = 1; year++ }
  }
  return [...ends, asOf]
}

/** Natural balances by source account id at each month end. */
export const balancesAt = (accounts: ReadonlyArray<SourceAccount>, txns: ReadonlyArray<ResolvedTxn>, ends: ReadonlyArray<string>) => {
  const types = new Map(accounts.map((account) => [account.id, account.type]))
  // Running sums in bigint: a source may move amounts whose running total passes the safe range
  // between month ends (ten moves of 1e15 cents in and out), where number sums lose cents.
  const running = new Map<string, bigint>()
  const result = new Map<string, Map<string, number>>()
  let index = 0
  for (const end of ends) {
    for (; index < txns.length && txns[index]!.date <= end; index++) {
      for (const line of txns[index]!.lines) {
        const type = types.get(line.account)
        if (type === null || type === undefined) continue
        running.set(line.account, (running.get(line.account) ?? 0n) + BigInt(naturalSign(type) * line.cents))
      }
    }
    result.set(end, new Map([...running].map(([account, cents]) => [account, Number(cents)])))
  }
  return result
}

export const tieout = (
  bundle: Bundle,
  asOf: string,
  options: { readonly openDocuments?: boolean } = {}
): Tieout & { readonly resolved: ReadonlyArray<ResolvedTxn> } => {
  const { resolved, unresolved } = resolve(bundle)
  const ends = monthEnds(resolved[0]?.date ?? null, asOf)
  const balances = balancesAt(bundle.accounts, resolved, ends)
  const final = balances.get(asOf) ?? new Map<string, number>()
  const posting = bundle.accounts.filter((account) => account.type !== null)
  const differences: Array<Difference> = posting
    .filter((account) => (final.get(account.id) ?? 0) !== account.balanceCents)
    .map((account) => ({ account: account.id, name: account.name, source_cents: account.balanceCents, computed_cents: final.get(account.id) ?? 0 }))
  const months = ends.map((end) => {
    const atEnd = balances.get(end)!
    const signed = posting.reduce((sum, account) => sum + naturalSign(account.type!) * (atEnd.get(account.id) ?? 0), 0)
    const own = end === asOf ? differences : []
    return { month_end: end, passed: signed === 0 && own.length === 0, differences: own }
  })
  const controlTotal = (special: "ar" | "ap") =>
    posting.filter((account) => account.special === special).reduce((sum, account) => sum + (final.get(account.id) ?? 0), 0)
  const partyTotal = (parties: ReadonlyArray<SourceParty>) => parties.reduce((sum, party) => sum + party.balanceCents, 0)
  const ar = { source_cents: partyTotal(bundle.customers), computed_cents: controlTotal("ar") }
  const ap = { source_cents: partyTotal(bundle.vendors), computed_cents: controlTotal("ap") }
  const arAging = { ...ar, passed: ar.source_cents === ar.computed_cents }
  const apAging = { ...ap, passed: ap.source_cents === ap.computed_cents }
  const open = options.openDocuments === true ? openDocuments(bundle, { ar: ar.computed_cents, ap: ap.computed_cents }) : undefined
  const passed = months.every((month) => month.passed) && arAging.passed && apAging.passed && unresolved.length === 0 && open?.passed !== false
  const stored = Object.fromEntries([...balances].map(([end, map]) => [end, Object.fromEntries(map)]))
  return {
    passed, as_of: asOf, months, ar_aging: arAging, ap_aging: apAging, unresolved, ...(open === undefined ? {} : { open_documents: open }), balances: stored, resolved
  }
}

const money = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`

const openLines = (open: OpenDocuments | undefined): Array<string> => open === undefined ? [] : [
  `Open documents: AR ${money(open.ar.documents_cents)} against ${money(open.ar.control_cents)}, AP ${money(open.ap.documents_cents)} against ${money(open.ap.control_cents)} (${open.passed ? "ties" : "differs"})`,
  ...open.parties.map((party) => `- ${party.name}: balance ${money(party.balance_cents)}, open documents ${money(party.documents_cents)}`),
  ...open.orphans.map((id) => `- ${id}: names a customer or vendor the extraction does not have`)
]

export const markdown = (result: Tieout): string => [
  `# Tie-out as of ${result.as_of}: ${result.passed ? "PASS" : "FAIL"}`,
  "",
  "| Month end | Trial balance |",
  "|---|---|",
  ...result.months.map((month) => `| ${month.month_end} | ${month.passed ? "ties" : `${month.differences.length} difference(s)`} |`),
  "",
  `AR aging: source ${money(result.ar_aging.source_cents)}, books ${money(result.ar_aging.computed_cents)} (${result.ar_aging.passed ? "ties" : "differs"})`,
  `AP aging: source ${money(result.ap_aging.source_cents)}, books ${money(result.ap_aging.computed_cents)} (${result.ap_aging.passed ? "ties" : "differs"})`,
  ...result.months.flatMap((month) => month.differences.map((difference) =>
    `- ${difference.name}: source ${money(difference.source_cents)}, computed ${money(difference.computed_cents)}`)),
  ...openLines(result.open_documents),
  ...result.unresolved.map((item) => `- ${item.id}: ${item.reason}`)
].join("\n")
