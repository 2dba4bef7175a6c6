import { Catalog, type Operation, Scope } from "@ledger/api"

/**
 * Which tools a caller sees (issue 20 item 5). An agent's context window is its working memory:
 * a read-and-propose agent should not carry `create_company`, the operator's tools or the
 * administration of keys it may not use. The list follows who is asking (principal kind and
 * scopes, from `GET /v1/me` through the same pipeline as every call) and, when the client asks,
 * named toolsets. Calling a tool that is not listed still goes through the pipeline, which refuses
 * it as it would over HTTP: the list is a courtesy to the agent, never the access control.
 */

/**
 * Who asks, as `getMe` answered (or `getFirm`, for a firm's credential that names no client);
 * null when neither knows the credential.
 */
export interface Caller {
  readonly principalType: string
  readonly scopes: ReadonlyArray<Scope.Scope>
  /** Acting as its firm (no client named): the firm's tools, and the company tools it may call in a client. */
  readonly firm?: boolean | undefined
  /** Who this is, to bind a session's toolsets to one principal: type, id and company (or firm). */
  readonly identity?: string | undefined
}

const people = new Set(["user", "firm_member", "operator"])

/** Whether an operation may succeed for the caller at all: its credential kind, scope and people-only rule. */
export const usableBy = (operation: Operation.Any, caller: Caller | null): boolean => {
  if (!operation.mcpTool || operation.credential === "none") return false
  // A browser session's operations never run over MCP, which takes keys and access tokens.
  if (operation.browserSessionOnly) return false
  if (caller === null) return true
  if (operation.credential === "firm" && caller.firm === true) return Scope.satisfies(caller.scopes, operation.scope)
  if (operation.credential !== "company") return false
  if (operation.peopleOnly && !people.has(caller.principalType)) return false
  return Scope.satisfies(caller.scopes, operation.scope)
}

/**
 * Toolsets a client may ask for with `?toolsets=` on the MCP address or the `X-Ledger-Toolsets`
 * header, or turn on and off during a session with `enable_toolset` and `disable_toolset`: every
 * area of the catalog by its name, and `books` for the ledger with its reports. Two more names are
 * not sets of their own: `default`, the starting list of the caller's kind (`startingIds`), and
 * `all`, every tool the caller may use.
 */
export const toolsets: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const sets = new Map<string, Set<string>>()
  for (const [area, operations] of Object.entries(Catalog.areas)) {
    sets.set(area, new Set((operations as ReadonlyArray<Operation.Any>).map((operation) => operation.id)))
  }
  sets.set("books", new Set([...(sets.get("ledger") ?? []), ...(sets.get("reports") ?? [])]))
  return sets
})()

/** One line per toolset for `list_toolsets`: what the tools are for, so an agent can choose without loading them. */
const about: Readonly<Record<string, string>> = {
  default: "The starting list for your kind of credential: read the books, propose entries, categorize bank lines, draft invoices (approvals for people who may approve).",
  all: "Every tool your credential may use (large: several hundred KB).",
  books: "The ledger and its reports together.",
  administration: "The company, its people, agents, API keys, kill switch and audit log.",
  ledger: "Chart of accounts, journal entries, proposals and their approval, periods and fiscal years, classes.",
  sales: "Contacts, items, invoices, bills, credit memos, estimates, payments, recurring templates, sales tax rates, email outbox, aging.",
  banking: "Bank accounts, statement imports, bank lines (categorize, match, exclude), rules, feeds, reconciliations.",
  reports: "Trial balance, profit and loss, balance sheet, general ledger.",
  firms: "An accounting firm: its members, agents, keys and client companies.",
  auth: "Sign-in and browser sessions (people only).",
  webhooks: "Webhook subscriptions, their secrets, test events and deliveries.",
  receipts: "Receipts: upload, extract, match to bank lines, turn into expenses; the receipt inbox.",
  profile: "The company's profile and logo, as documents show them.",
  tax: "Income-tax lines, the tax profile, account-to-line mapping, the tax trial balance and tax return exports.",
  taxforms: "1099s: payer, vendor tax profiles and TINs, W-9 requests, prior amounts, filings and recipient copies.",
  payroll: "Payroll year-to-date imports and payroll summary entries.",
  mileage: "Vehicles, trips (one-off and recurring), the mileage log and deduction, reimbursements.",
  "estimated-taxes": "The estimated income tax plan and its payments.",
  crypto: "Crypto wallets, lots, disposals, gains, receipts, quotes and valuations (reads; writes are the owner's, not over MCP).",
  integrations: "Connections to outside systems, their mappings, syncs and synced objects.",
  migrations: "Importing books from another system: connections, staging, tie-out, import.",
  "ai-apps": "AI apps connected to the company: their levels and disconnection.",
  "ai-consent": "AI providers, disclosure consents (7216) and their log.",
  "online-payments": "Online payments: settings, charges, payouts and pay links.",
  billing: "Ledger's own subscription for the company."
}

/** What `list_toolsets` says of a toolset; the area's name when no line was written for it yet. */
export const describe = (name: string): string => about[name] ?? `The ${name} area's tools.`

/**
 * The starting list (issue 40): the common work of each kind of caller, at most 40 tools and 48 KB
 * with the discovery tools (test/mcp/default-list.test.ts measures every kind). Everything else is
 * one `list_toolsets` / `enable_toolset` / `call_tool` away. Reads first, then the writes of the
 * caller's level: a reader gets the reports, a proposer the three writes agents are hired for, an
 * approver the approvals too. Chosen by bytes as much as by use: a governed write's schema is 4 to
 * 7 KB, so only the writes of the common work are here.
 */
const reading = [
  "getMe", "listAccounts", "getTrialBalance", "listPeriods", "listProposals", "listBankAccounts", "listBankLines",
  "listContacts", "listDocuments"
]
const readingMore = ["getJournalEntry", "getProposal", "getProfitAndLoss", "getBalanceSheet", "getGeneralLedger", "getDocument"]
const working = ["proposeJournalEntry", "categorizeBankLine", "createInvoice"]
const approving = ["approveProposal", "rejectProposal"]
const firmWork = ["getFirm", "listFirmClients"]

export const startingIds = (caller: Caller | null): ReadonlyArray<string> => {
  const writes = caller === null || Scope.satisfies(caller.scopes, "propose")
  const approves = caller === null || Scope.satisfies(caller.scopes, "approve")
  return [
    ...(caller?.firm === true ? firmWork : []),
    ...reading,
    ...(writes ? [] : readingMore),
    ...(writes ? working : []),
    ...(approves ? approving : [])
  ]
}

/** At most this many names in one `toolsets` value: a longer list is a mistake, not a choice. */
const toolsetNamesMax = 32

/** Whether `name` is a toolset a client may name: an area, `books`, `default` or `all`. */
export const known = (name: string): boolean => name === "default" || name === "all" || toolsets.has(name)

/**
 * The toolsets named by `?toolsets=` or `X-Ledger-Toolsets`: `default` when none is named. Unknown
 * names are answered, not ignored, so a typo does not silently give an agent nothing.
 */
export const named = (value: string | null): { readonly names: ReadonlySet<string>; readonly unknown: ReadonlyArray<string> } => {
  if (value === null || value.trim() === "") return { names: new Set(["default"]), unknown: [] }
  const names = value.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "").slice(0, toolsetNamesMax)
  return { names: new Set(names.filter(known)), unknown: names.filter((name) => !known(name)) }
}

/** The operation ids the named toolsets hold for `caller`, or null for all of them (`all`). */
export const idsOf = (names: ReadonlySet<string>, caller: Caller | null): ReadonlySet<string> | null => {
  if (names.has("all")) return null
  const ids = new Set<string>()
  for (const name of names) {
    for (const id of name === "default" ? startingIds(caller) : toolsets.get(name) ?? []) ids.add(id)
  }
  return ids
}

/** The values of the output-schemas option: `none` lists tools without their output schemas. */
export const outputSchemasValues = ["all", "none"] as const

/**
 * Whether to list output schemas (true by default), from `?output_schemas=none` on the MCP address
 * or the `X-Ledger-Output-Schemas: none` header: a client that does not read `structuredContent`
 * need not load, nor compile, every answer's schema. Calls answer the same either way. Null for a
 * value that is neither, answered rather than ignored, as an unknown toolset is.
 */
export const outputSchemas = (value: string | null): boolean | null => {
  const chosen = (value ?? "").trim().toLowerCase()
  return chosen === "" || chosen === "all" ? true : chosen === "none" ? false : null
}

/** What the server tells every MCP client at initialization: how Ledger's tools fit together. */
export const instructions = [
  "Ledger is a double-entry bookkeeping service. Every tool acts in ONE company: the one your key belongs to",
  "(a firm credential names the client company with the X-Ledger-Company header or the dev.ledger/company meta).",
  "Money is integer cents (amount_cents); dates are YYYY-MM-DD.",
  "Writes need an idempotency_key: a fresh unique value per intended change; reuse the same key when you retry",
  "the same call, and the first result is replayed instead of writing twice.",
  "Governed writes (journal entries, invoices, bills, payments...) accept dry_run: true to preview without writing.",
  "An agent's write above its posting threshold is not posted: it becomes a proposal (status 202) that a person",
  "approves; report the proposal id to the person instead of retrying.",
  "Refusals are JSON with error.type (stable) and error.message; read error.details for what to fix.",
  "Record ids are integers; timestamps are ISO 8601 in UTC.",
  "The tool list starts small, with the common work of your kind of credential. Every other tool you may use is one",
  "step away: list_toolsets names them by toolset, describe_tool shows one tool's input, enable_toolset adds a toolset",
  "to this session's list (the server then sends notifications/tools/list_changed), and call_tool calls any of them",
  "by name if your client does not reload its list. ?toolsets=books,sales on the MCP URL chooses the starting list."
].join(" ")
