import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"

/**
 * What an agent reads rather than calls, and the workflows it is handed (issue 40 item 3, ADR
 * 2201). Resources are the caller's company's books as JSON, each read through the tool that
 * answers it, so the pipeline authenticates, scopes and audits a read exactly as the tool call:
 * a caller who may not call `list_proposals` cannot read the pending proposals either. Prompts
 * are the common workflows, each naming the tools it uses (a test checks every name is a tool).
 */

export interface ResourceEntry {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  /** The tool whose answer is the resource, and its arguments. */
  readonly tool: string
  readonly args: Readonly<Record<string, unknown>>
}

export const resources: ReadonlyArray<ResourceEntry> = [
  {
    uri: "ledger://books/chart-of-accounts",
    name: "chart_of_accounts",
    title: "Chart of accounts",
    description: "Every account of the company: code, name, type, subtype and whether it is active (list_accounts, first 1,000).",
    tool: "list_accounts",
    args: { limit: 1_000 }
  },
  {
    uri: "ledger://books/trial-balance",
    name: "trial_balance",
    title: "Trial balance today",
    description: "Each account's debit or credit balance as of today, with the totals (get_trial_balance).",
    tool: "get_trial_balance",
    args: {}
  },
  {
    uri: "ledger://books/periods",
    name: "periods",
    title: "Accounting periods",
    description: "The periods and their states (open, soft or hard locked), which say where an entry may post (list_periods).",
    tool: "list_periods",
    args: { limit: 1_000 }
  },
  {
    uri: "ledger://books/proposals/pending",
    name: "pending_proposals",
    title: "Proposals waiting for a person",
    description: "Entries agents proposed that wait for approval, with why each waits (list_proposals status=pending).",
    tool: "list_proposals",
    args: { status: "pending", limit: 100 }
  }
]

export interface PromptEntry {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly arguments: ReadonlyArray<{ readonly name: string; readonly description: string; readonly required: boolean }>
  /** The tools the workflow uses, in the order it uses them. */
  readonly tools: ReadonlyArray<string>
  readonly text: (args: Readonly<Record<string, string>>) => string
}

const steps = (lines: ReadonlyArray<string>) => lines.map((line, index) => `${index + 1}. ${line}`).join("\n")

export const prompts: ReadonlyArray<PromptEntry> = [
  {
    name: "month_end_close",
    title: "Close a month",
    description: "Bring a month's books to a close: every bank line categorized, accounts reconciled, proposals decided, the period locked.",
    arguments: [{ name: "month", description: "The month to close, as YYYY-MM.", required: true }],
    tools: ["list_bank_accounts", "list_bank_lines", "categorize_bank_line", "start_reconciliation", "finish_reconciliation", "list_proposals",
      "get_trial_balance", "propose_journal_entry", "list_periods", "set_period_status"],
    text: (args) => `Close the month ${args.month ?? "(ask which month)"} for this company.\n` + steps([
      "list_bank_accounts, then list_bank_lines for each account to find lines of the month that are not categorized; categorize_bank_line each (it proposes when over your threshold).",
      "For each bank account, start_reconciliation with the statement's ending balance and date, match the month's lines, then finish_reconciliation when the difference is zero.",
      "list_proposals with status=pending: tell the person which proposals of the month wait for their approval; never approve your own.",
      "get_trial_balance as of the month's last day; propose_journal_entry for accruals or corrections you find, with a memo saying why.",
      "list_periods to find the month's period; when everything above is done, ask the person to lock it (set_period_status, soft lock with a reason)."
    ])
  },
  {
    name: "reconcile_bank_account",
    title: "Reconcile a bank account",
    description: "Reconcile one bank account against its statement.",
    arguments: [
      { name: "bank_account_id", description: "The bank account's id (list_bank_accounts).", required: true },
      { name: "statement_date", description: "The statement's date, YYYY-MM-DD.", required: true },
      { name: "ending_balance_cents", description: "The statement's ending balance, in cents.", required: true }
    ],
    tools: ["list_bank_accounts", "import_statement", "list_bank_lines", "categorize_bank_line", "start_reconciliation", "update_reconciliation",
      "finish_reconciliation", "get_reconciliation_report"],
    text: (args) => `Reconcile bank account ${args.bank_account_id ?? "(ask which)"} to its statement of ${args.statement_date ?? "(ask the date)"} ` +
      `ending at ${args.ending_balance_cents ?? "(ask the balance)"} cents.\n` + steps([
      "If the statement's lines are not in yet, import_statement with the bank's file (OFX, QFX, CSV, CAMT.053).",
      "list_bank_lines for the account; categorize_bank_line any uncategorized line up to the statement date.",
      "start_reconciliation with the statement date and ending balance; update_reconciliation to clear the lines the statement shows.",
      "finish_reconciliation once the difference is zero; get_reconciliation_report for the person's records. If it is not zero, say which lines differ; do not force it."
    ])
  },
  {
    name: "categorize_imported_lines",
    title: "Categorize imported bank lines",
    description: "Categorize the bank lines an import brought in, with the company's rules first.",
    arguments: [{ name: "bank_account_id", description: "The bank account whose lines to categorize (list_bank_accounts).", required: false }],
    tools: ["list_bank_accounts", "list_bank_rules", "list_bank_lines", "list_accounts", "categorize_bank_line", "create_bank_rule"],
    text: (args) => `Categorize the uncategorized bank lines${args.bank_account_id === undefined ? "" : ` of bank account ${args.bank_account_id}`}.\n` + steps([
      "list_bank_rules: the company's rules already categorize what they match; do not redo their work.",
      "list_bank_lines for uncategorized lines; list_accounts (or read ledger://books/chart-of-accounts) for the expense and income accounts.",
      "categorize_bank_line each line with the account that fits its payee and memo; a line over your threshold becomes a proposal for a person.",
      "Where the same payee recurs, suggest create_bank_rule to the person (people decide rules)."
    ])
  },
  {
    name: "chase_overdue_invoices",
    title: "Chase overdue invoices",
    description: "Find overdue invoices and draft the reminders.",
    arguments: [{ name: "as_of", description: "The date to age invoices at, YYYY-MM-DD (default today).", required: false }],
    tools: ["get_ar_aging", "list_documents", "get_document", "email_document", "list_contacts"],
    text: (args) => `Chase the company's overdue invoices${args.as_of === undefined ? "" : ` as of ${args.as_of}`}.\n` + steps([
      "get_ar_aging to find customers with amounts past due, oldest first.",
      "list_documents (kind invoice, open) and get_document for each overdue invoice: number, due date, balance.",
      "list_contacts for each customer's email address.",
      "email_document each overdue invoice with a short, polite reminder naming the number, balance and due date; the email waits for a person's approval when the company asks it."
    ])
  }
]

/** Reads a tool's answer for a resource: the JSON text, or the refusal's body when the pipeline refused it. */
export type ReadTool = (tool: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal) => Promise<{ readonly ok: boolean; readonly text: string }>

/** Adds resources and prompts to one request's server (its capabilities name both). */
export const register = (server: Server, read: ReadTool) => {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources.map((resource) => ({
      uri: resource.uri, name: resource.name, title: resource.title, description: resource.description, mimeType: "application/json"
    }))
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const resource = resources.find((candidate) => candidate.uri === request.params.uri)
    if (resource === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri.slice(0, 200)}. resources/list names them.`)
    }
    const answer = await read(resource.tool, resource.args, extra.signal)
    // A refusal (no scope, no company) is the API's own error body, as the tool would answer it.
    if (!answer.ok) throw new McpError(ErrorCode.InvalidRequest, answer.text.slice(0, 2_000))
    return { contents: [{ uri: resource.uri, mimeType: "application/json", text: answer.text }] }
  })
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: prompts.map((prompt) => ({ name: prompt.name, title: prompt.title, description: prompt.description, arguments: [...prompt.arguments] }))
  }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = prompts.find((candidate) => candidate.name === request.params.name)
    if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `No prompt ${request.params.name.slice(0, 100)}. prompts/list names them.`)
    const args = request.params.arguments ?? {}
    const missing = prompt.arguments.filter((argument) => argument.required && (args[argument.name] ?? "") === "").map((argument) => argument.name)
    if (missing.length > 0) throw new McpError(ErrorCode.InvalidParams, `The prompt ${prompt.name} needs: ${missing.join(", ")}.`)
    const bounded = Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value).slice(0, 200)]))
    return {
      description: `${prompt.description} Tools: ${prompt.tools.join(", ")}.`,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text(bounded) } }]
    }
  })
}
