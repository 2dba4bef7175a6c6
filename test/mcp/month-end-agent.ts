import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { type Budget, connectMetered, type Fetch, type Meter, newBudget, newMeter } from "./metered.ts"
import { dayOf, type MonthEndCompany } from "./month-end-company.ts"

/**
 * A scripted month-end over MCP (issue 40 item 5): no model, the same steps every run. Two clients
 * of the official SDK, each starting from its default tool list: the bookkeeping agent (read and
 * propose) imports the statement, invoices the customer and records its payment, categorizes the
 * month's lines (rules first), posts the depreciation and reconciles; the owner approves what was
 * over the agent's threshold, finishes the reconciliation, reviews the trial balance and locks
 * the month. A tool outside the default list is read with describe_tool and called through
 * call_tool, and only with arguments its described schema names: what discovery teaches is enough.
 */

/**
 * What one month's close may spend, both actors together (docs/agents.md "A month-end in
 * figures"): enforced while it runs (a call past the budget is not sent) and asserted after.
 */
export const monthEndBudget = {
  /** JSON-RPC requests. */
  calls: 40,
  /** Bytes of every answer read, tool lists included. */
  bytes: 240_000,
  /** The largest single answer: the default tool list is bounded at 48 KB; nothing else may be larger. */
  responseBytes: 48 * 1024
} as const

/** Bytes of the tool lists read (each actor's default list, once). */
export const toolListBytesMax = 100_000

export interface Actor {
  readonly client: Client
  readonly meter: Meter
  readonly listed: ReadonlySet<string>
  readonly described: Set<string>
}

export interface MonthEndReport {
  readonly agent: Meter
  readonly owner: Meter
  readonly invoiceId: number
  readonly paymentEntryId: number
  readonly depreciationEntryId: number
  readonly proposalIds: ReadonlyArray<number>
  readonly reconciliationId: number
  readonly periodId: number
}

/** A refusal or an unexpected answer stops the script, naming the step. */
export class StepFailed extends Error {}

export const agentModel = "scripted-month-end/1.0"

let keys = 0
const key = (what: string) => `${what}-${Date.now().toString(36)}-${(keys++).toString(36)}`

const answerOf = (tool: string, result: unknown): any => {
  const { isError, structuredContent, content } = result as { isError?: boolean; structuredContent?: unknown; content?: Array<{ text?: string }> }
  if (isError === true) throw new StepFailed(`${tool}: ${content?.map((block) => block.text).join(" | ")}`)
  return structuredContent
}

/** Calls a tool of the list by its name, or any other through call_tool after describing it. */
export const use = async (actor: Actor, tool: string, args: Record<string, unknown>): Promise<any> => {
  if (actor.listed.has(tool)) return answerOf(tool, await actor.client.callTool({ name: tool, arguments: args }))
  if (!actor.described.has(tool)) {
    // What to send is all the script needs: it reads answers as they come, without their schema.
    const described = answerOf("describe_tool", await actor.client.callTool({ name: "describe_tool", arguments: { name: tool, output_schema: false } }))
    const properties = Object.keys(described.tool.inputSchema.properties ?? {})
    const unknown = Object.keys(args).filter((name) => !properties.includes(name))
    if (unknown.length > 0) throw new StepFailed(`${tool}: describe_tool does not name ${unknown.join(", ")}`)
    actor.described.add(tool)
  }
  return answerOf(tool, await actor.client.callTool({ name: "call_tool", arguments: { name: tool, arguments: args } }))
}

const readJson = async (actor: Actor, uri: string): Promise<any> => {
  const read = await actor.client.readResource({ uri })
  return JSON.parse(String((read.contents[0] as { text?: string }).text))
}

const connect = async (fetch: Fetch, url: string, token: string, budget: Budget, headers: Record<string, string> = {}): Promise<Actor> => {
  const meter = newMeter(budget)
  const client = await connectMetered(fetch, url, token, meter, headers)
  const listed = new Set((await client.listTools()).tools.map((tool) => tool.name))
  return { client, meter, listed, described: new Set() }
}

/** Where a line goes when no rule suggests an account: what a bookkeeper would choose by its payee. */
const byPayee: ReadonlyArray<readonly [RegExp, string]> = [
  [/laptop|monitor|dell/iu, "1500"],
  [/web services|software|hosting/iu, "6070"]
]

/** The agent's first half: the statement, the invoice and its payment, the lines, the depreciation. */
const keepTheBooks = async (agent: Actor, company: MonthEndCompany) => {
  await agent.client.getPrompt({ name: "month_end_close", arguments: { month: company.month } })
  const me = await use(agent, "get_me", {})
  const banks = await use(agent, "list_bank_accounts", {})
  const bank = banks.data.find((account: { ledger_account: string }) => account.ledger_account === "1010")
  if (bank === undefined) throw new StepFailed("list_bank_accounts: no checking account on 1010")
  await use(agent, "list_toolsets", {})
  await use(agent, "import_statement", {
    id: bank.id, format: "csv", content: company.statement, filename: `${company.month}.csv`, idempotency_key: key("import")
  })
  const lines: Array<any> = (await use(agent, "list_bank_lines", { bank_account_id: bank.id, status: "unmatched" })).data
  const contacts = await use(agent, "list_contacts", {})
  const acme = contacts.data.find((contact: { name: string }) => contact.name === "Acme Corp")
  const invoice = await use(agent, "create_invoice", {
    contact_id: acme.id, doc_date: dayOf(company.month, 6), idempotency_key: key("invoice"),
    lines: [{ description: `Consulting, ${company.month}`, account: "4100", amount_cents: 150_000 }]
  })
  const deposit = lines.find((line) => line.amount_cents === 150_000)
  const payment = await use(agent, "receive_payment", {
    contact_id: acme.id, bank_line_id: deposit.id, applications: [{ document_id: invoice.id, amount_cents: 150_000 }],
    idempotency_key: key("payment")
  })
  const proposals: Array<number> = []
  for (const line of lines.filter((candidate) => candidate.id !== deposit.id)) {
    const account = line.suggestion?.account ?? byPayee.find(([pattern]) => pattern.test(`${line.payee} ${line.memo ?? ""}`))?.[1]
    if (account === undefined) throw new StepFailed(`no account for bank line ${line.payee}`)
    const answer = await use(agent, "categorize_bank_line", {
      id: line.id, account, ...(line.suggestion?.rule_id === undefined ? {} : { rule_id: line.suggestion.rule_id }),
      idempotency_key: key(`categorize-${line.id}`)
    })
    // Over the threshold get_me named, the answer is a proposal for a person, not a posting.
    if (Math.abs(line.amount_cents) > me.posting_threshold_cents) proposals.push(answer.proposal.id)
  }
  const depreciation = await use(agent, "propose_journal_entry", {
    entry_date: company.lastDay, memo: `Depreciation ${company.month}: equipment over 60 months`, idempotency_key: key("depreciation"),
    lines: [{ account: "6250", debit_cents: 10_000 }, { account: "1510", credit_cents: 10_000 }]
  })
  return { bankId: bank.id as number, invoiceId: invoice.id as number, paymentEntryId: payment.entry_id as number, depreciationEntryId: depreciation.id as number, proposals }
}

/** The agent's second half, once the owner has decided: reconcile to the statement, then check the books. */
const reconcile = async (agent: Actor, company: MonthEndCompany, bankId: number) => {
  const started = await use(agent, "start_reconciliation", {
    id: bankId, statement_date: company.lastDay, statement_ending_balance_cents: company.endingBalanceCents, auto_clear: true,
    idempotency_key: key("reconcile")
  })
  if (started.difference_cents !== 0) throw new StepFailed(`start_reconciliation: ${started.difference_cents} cents off the statement`)
  const trial = await readJson(agent, "ledger://books/trial-balance")
  if (trial.total_debit_cents !== trial.total_credit_cents) throw new StepFailed("the trial balance does not balance")
  return started.id as number
}

/** The owner: approve what waits, finish the reconciliation, review, lock the month. */
const approve = async (owner: Actor, proposals: ReadonlyArray<number>) => {
  const pending = await readJson(owner, "ledger://books/proposals/pending")
  for (const id of proposals) {
    if (!pending.data.some((proposal: { id: number }) => proposal.id === id)) throw new StepFailed(`proposal ${id} is not pending`)
    await use(owner, "approve_proposal", { id, reason: "Checked against the statement and the owner's records", idempotency_key: key(`approve-${id}`) })
  }
}

const lock = async (owner: Actor, company: MonthEndCompany, reconciliationId: number) => {
  await use(owner, "finish_reconciliation", { id: reconciliationId, idempotency_key: key("finish") })
  const trial = await readJson(owner, "ledger://books/trial-balance")
  if (trial.total_debit_cents !== trial.total_credit_cents) throw new StepFailed("the trial balance does not balance")
  const periods = await readJson(owner, "ledger://books/periods")
  const period = periods.data.find((candidate: { start_date: string }) => candidate.start_date === dayOf(company.month, 1))
  if (period === undefined) throw new StepFailed(`no period starts on ${dayOf(company.month, 1)}`)
  await use(owner, "set_period_status", {
    id: period.id, status: "soft_locked", reason: `${company.month} closed: reconciled, proposals decided`, idempotency_key: key("lock")
  })
  return period.id as number
}

/** Runs the month-end over MCP at `url` (the server's /mcp) through `fetch`. */
export const closeMonth = async (fetch: Fetch, url: string, company: MonthEndCompany): Promise<MonthEndReport> => {
  const budget = newBudget(monthEndBudget)
  const agent = await connect(fetch, url, company.agentKey, budget, { "x-agent-model": agentModel })
  const owner = await connect(fetch, url, company.ownerKey, budget)
  try {
    const books = await keepTheBooks(agent, company)
    await approve(owner, books.proposals)
    const reconciliationId = await reconcile(agent, company, books.bankId)
    const periodId = await lock(owner, company, reconciliationId)
    return {
      agent: agent.meter, owner: owner.meter, invoiceId: books.invoiceId, paymentEntryId: books.paymentEntryId,
      depreciationEntryId: books.depreciationEntryId, proposalIds: books.proposals, reconciliationId, periodId
    }
  } finally {
    await agent.client.close()
    await owner.client.close()
  }
}
