import type { Operation } from "@ledger/api"

/**
 * What an agent should do next (issue 40 item 4): a line after a refusal, by its stable type, and a
 * line after a queued proposal. It travels as a second text block of the tool's result (what a
 * model reads) and as `_meta["dev.ledger/hint"]` (what a program reads); the first block and
 * `structuredContent` stay the error body the HTTP API answers, unchanged.
 */

const byType: Readonly<Record<string, string>> = {
  invalid_request: "Fix the arguments error.details names (describe_tool shows this tool's input schema), then call again.",
  validation_failed: "Fix what error.details names, then call again.",
  idempotency_key_required: "Add idempotency_key: a fresh unique value for this change (the same one if you retry it).",
  invalid_idempotency_key: "Use an idempotency_key of 8 to 200 characters.",
  idempotency_conflict: "This idempotency_key was used for a different call: use a fresh key for a new change.",
  idempotency_in_progress: "The first call with this key is still running: retry the same call, same key, shortly.",
  insufficient_scope: "Your credential may not do this: leave this step to a person who may, and tell them what you wanted.",
  agent_model_required: "Name your model in _meta \"dev.ledger/model\" (or the X-Agent-Model header), then call again.",
  kill_switch_active: "A person has suspended agent writes: stop writing and tell them; reads still work.",
  not_found: "Check the id: the matching list_ tool gives the ids that exist (list_toolsets names the tools).",
  period_locked: "The date is in a locked period: use a date in an open period (list_periods), or ask a person to reopen it (set_period_status).",
  // A hard lock is reopened by a person with a reason (setPeriodStatus: hard_locked -> open).
  period_hard_locked: "The date is in a hard-locked period: post in an open period (list_periods); only a person may reopen it with set_period_status and a reason.",
  soft_lock_reason_required: "The date is in a soft-locked period: give soft_lock_override_reason if you should post there, or use an open period.",
  period_not_found: "No period covers the date: use a date list_periods covers, or ask a person to create the period.",
  unbalanced_entry: "Debits must equal credits: fix the lines' amounts, then call again.",
  unknown_account: "list_accounts gives the account codes that exist.",
  inactive_account: "The account is inactive: choose an active one (list_accounts).",
  proposal_not_pending: "The proposal was decided already: get_proposal shows how.",
  self_approval_refused: "A different person must approve this.",
  rate_limited: "Too many calls: wait, then retry the same call with the same idempotency_key.",
  conflict: "The record changed or is in a state that refuses this: read it again, then decide.",
  service_unavailable: "A provider is unavailable: retry later with the same idempotency_key."
}

/** The next step after a refusal of this type, or null when its message says all. */
export const forRefusal = (type: string): string | null => byType[type] ?? null

type Details = Readonly<Record<string, unknown>>

/** The arguments' issues the API named (`details.issues`), as the agent's field names: `lines`, `lines.0.account`. */
const issuesOf = (details: Details): ReadonlyArray<{ readonly field: string; readonly message: string }> =>
  (Array.isArray(details.issues) ? details.issues : []).flatMap((issue: { path?: unknown; message?: unknown }) => {
    const path = Array.isArray(issue.path) ? issue.path.map(String) : []
    // The API says where a field came from (body, query, path); a tool's arguments are one object.
    const field = (["body", "query", "path"].includes(path[0] ?? "") ? path.slice(1) : path).join(".")
    return field === "" || typeof issue.message !== "string" ? [] : [{ field, message: issue.message }]
  })

/** The field to add, to remove or to fix, first: what an agent can act on without reading the schema. */
const fieldsHint = (details: Details): string | null => {
  const issues = issuesOf(details).slice(0, 3)
  if (issues.length === 0) return null
  const missing = issues.filter((issue) => /required|missing/iu.test(issue.message)).map((issue) => issue.field)
  const excess = issues.filter((issue) => /excess|unexpected|not allowed/iu.test(issue.message)).map((issue) => issue.field)
  const other = issues.filter((issue) => !missing.includes(issue.field) && !excess.includes(issue.field))
  return [
    ...(missing.length === 0 ? [] : [`Add ${missing.join(", ")} (describe_tool shows what it takes).`]),
    ...(excess.length === 0 ? [] : [`Remove ${excess.join(", ")}: this tool does not take ${excess.length === 1 ? "it" : "them"}.`]),
    ...other.map((issue) => `Fix ${issue.field}: ${issue.message}.`)
  ].join(" ") + " Then call again."
}

/** After "<date> is in period <id>, ": what to do about each kind of lock. */
const periodSteps: Readonly<Record<string, string>> = {
  period_locked: "locked: use a date in an open period (list_periods), or ask a person to reopen it (set_period_status).",
  period_hard_locked: "hard-locked: post in an open period (list_periods); only a person may reopen it with set_period_status and a reason.",
  soft_lock_reason_required: "soft-locked: give soft_lock_override_reason if you should post there, or use a date in an open period (list_periods)."
}

/** A refusal's next step, made exact by its details: the fields, the scope, the period. */
const forRefusalBody = (type: string, details: Details): string | null => {
  if (type === "invalid_request" || type === "validation_failed" || byType[type] === undefined) {
    const fields = fieldsHint(details)
    if (fields !== null) return fields
  }
  if (type === "insufficient_scope" && typeof details.required_scope === "string") {
    return `This step needs the ${details.required_scope} scope, which your credential lacks: leave it to a person who has it, and tell them what you wanted.`
  }
  if (periodSteps[type] !== undefined && typeof details.period_id === "number") {
    const date = typeof details.entry_date === "string" ? details.entry_date : "The date"
    return `${date} is in period ${details.period_id}, ${periodSteps[type]}`
  }
  return forRefusal(type)
}

/** The next step after an answer: a queued proposal's, or a refusal's. */
export const forAnswer = (status: number, body: unknown): string | null => {
  if (status >= 400) {
    const error = (body as { readonly error?: { readonly type?: unknown; readonly details?: unknown } } | null)?.error
    const details = typeof error?.details === "object" && error.details !== null ? error.details as Details : {}
    return typeof error?.type === "string" ? forRefusalBody(error.type, details) : null
  }
  if (status === 202) {
    const proposal = (body as { readonly proposal?: { readonly id?: unknown } } | null)?.proposal
    const id = typeof proposal?.id === "number" ? ` ${proposal.id}` : ""
    return `Queued for a person's approval as proposal${id}: do not retry; tell the person, and read its status with get_proposal.`
  }
  return null
}

/**
 * What each write costs, said in its description: a governed write may post, queue a proposal or
 * preview; another write needs its key; a read costs nothing (and says nothing, to save bytes).
 */
export const cost = (operation: Operation.Any): string | null =>
  operation.governed
    ? "Governed write: posts within your threshold, else queues a proposal (202) for a person; dry_run: true previews."
    : operation.mode === "R" ? null : "Write."

/** What to call next, for the tools of the common work (the default list's, and what follows them). */
const nextOf: Readonly<Record<string, string>> = {
  getMe: "Next: your scopes and posting threshold say what you may do.",
  listAccounts: "Use the codes in entries, categorizations and invoice lines.",
  getTrialBalance: "Next: get_general_ledger for an account's entries.",
  listPeriods: "Post only into open periods.",
  listProposals: "Next: a person decides with approve_proposal or reject_proposal.",
  listBankLines: "Next: categorize_bank_line or match_bank_line for unmatched lines.",
  categorizeBankLine: "Next: list_bank_lines for the next line; start_reconciliation when all are done.",
  matchBankLine: "Next: list_bank_lines for the next line.",
  importStatement: "Next: auto_match_bank_lines, then categorize_bank_line for what is left.",
  proposeJournalEntry: "Next: a 202 is a proposal: tell a person its id.",
  createInvoice: "Next: email_document to send it; receive_payment when it is paid.",
  receivePayment: "Next: list_bank_lines to match the deposit.",
  listContacts: "Next: create_contact if the customer or vendor is missing.",
  listDocuments: "Next: get_document for one; receive_payment for an open invoice.",
  approveProposal: "Posts the proposal's entry.",
  startReconciliation: "Next: update_reconciliation to clear entries, then finish_reconciliation at zero difference.",
  setPeriodStatus: "Locks or reopens a period: close the month after reconciling."
}

export const next = (operation: Operation.Any): string | null => nextOf[operation.id] ?? null

