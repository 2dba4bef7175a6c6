import type { Client } from "@modelcontextprotocol/sdk/client/index.js"

/**
 * A bookkeeping agent that works through MCP only, as an LLM-driven agent would: it lists the
 * unmatched bank lines, decides an account for each one it recognises (the company's own bank
 * rule first, its policy next), and categorizes it. The ledger, not the agent, decides what that
 * does: within the agent's posting threshold the line is categorized and posted; above it the
 * categorization waits as a proposal for a person. Lines it does not recognise are left alone.
 */

export interface PolicyRule {
  /** Matched against the payee and memo. */
  readonly pattern: RegExp
  readonly account: string
  /** Money out (`out`), in (`in`), or either. */
  readonly direction?: "in" | "out"
  readonly memo?: string
}

export interface AgentOptions {
  readonly policy: ReadonlyArray<PolicyRule>
  /** X-Agent-Model, sent in each call's `_meta` (MCP clients cannot always set headers). */
  readonly model: string
  /** Names this run in the audit log and in its Idempotency-Keys, so a rerun changes nothing twice. */
  readonly runId: string
  readonly bankAccountId?: number
}

interface BankLine {
  readonly id: number
  readonly date: string
  readonly amount_cents: number
  readonly payee: string | null
  readonly memo: string | null
  readonly suggestion: { readonly account: string; readonly memo: string | null; readonly rule_name: string } | null
}

export interface Report {
  readonly posted: ReadonlyArray<number>
  readonly proposed: ReadonlyArray<{ readonly line: number; readonly proposal: number }>
  readonly skipped: ReadonlyArray<number>
  readonly refused: ReadonlyArray<{ readonly line: number; readonly type: string }>
}

/** The account for a line: the company's rule if one matched, else the agent's policy, else none. */
export const decide = (line: BankLine, policy: ReadonlyArray<PolicyRule>): { readonly account: string; readonly memo: string | null; readonly confidence: number } | null => {
  if (line.suggestion !== null) return { account: line.suggestion.account, memo: line.suggestion.memo, confidence: 0.95 }
  const text = `${line.payee ?? ""} ${line.memo ?? ""}`
  const direction = line.amount_cents < 0 ? "out" : "in"
  const rule = policy.find((candidate) => candidate.pattern.test(text) && (candidate.direction === undefined || candidate.direction === direction))
  return rule === undefined ? null : { account: rule.account, memo: rule.memo ?? null, confidence: 0.8 }
}

const meta = (options: AgentOptions) => ({ "dev.ledger/model": options.model, "dev.ledger/run_id": options.runId })

/** Every unmatched line, page by page. */
const unmatchedLines = async (mcp: Client, options: AgentOptions): Promise<ReadonlyArray<BankLine>> => {
  const lines: Array<BankLine> = []
  let cursor: string | null = null
  do {
    const result = await mcp.callTool({
      name: "list_bank_lines",
      arguments: {
        status: "unmatched",
        limit: 200,
        ...(options.bankAccountId === undefined ? {} : { bank_account_id: options.bankAccountId }),
        ...(cursor === null ? {} : { cursor })
      },
      _meta: meta(options)
    })
    if (result.isError === true) throw new Error(`list_bank_lines refused: ${JSON.stringify(result.structuredContent)}`)
    const page = result.structuredContent as { data: Array<BankLine>; has_more: boolean; next_cursor: string | null }
    lines.push(...page.data)
    cursor = page.has_more ? page.next_cursor : null
  } while (cursor !== null)
  return lines
}

export const categorizeUnmatched = async (mcp: Client, options: AgentOptions): Promise<Report> => {
  const posted: Array<number> = []
  const proposed: Array<{ line: number; proposal: number }> = []
  const skipped: Array<number> = []
  const refused: Array<{ line: number; type: string }> = []

  for (const line of await unmatchedLines(mcp, options)) {
    const decision = decide(line, options.policy)
    if (decision === null) {
      skipped.push(line.id)
      continue
    }
    const result = await mcp.callTool({
      name: "categorize_bank_line",
      arguments: {
        id: line.id,
        account: decision.account,
        confidence: decision.confidence,
        ...(decision.memo === null ? {} : { memo: decision.memo }),
        idempotency_key: `${options.runId}-line-${line.id}`
      },
      _meta: meta(options)
    })
    const body = result.structuredContent as { error?: { type: string }; status?: string; proposal?: { id: number } }
    const status = (result._meta as Record<string, unknown> | undefined)?.["dev.ledger/status"]
    if (result.isError === true) refused.push({ line: line.id, type: body.error?.type ?? "unknown" })
    else if (status === 202 && body.proposal !== undefined) proposed.push({ line: line.id, proposal: body.proposal.id })
    else posted.push(line.id)
  }
  return { posted, proposed, skipped, refused }
}
