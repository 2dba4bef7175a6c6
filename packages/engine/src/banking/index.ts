import { Banking } from "@ledger/api"
import { Effect } from "effect"
import * as Area from "../pipeline/Area.ts"
import * as BankLineLinks from "./BankLineLinks.ts"
import * as BankAccounts from "./BankAccounts.ts"
import * as BankFeeds from "./BankFeeds.ts"
import * as BankLines from "./BankLines.ts"
import * as BankRules from "./BankRules.ts"
import * as Imports from "./Imports.ts"
import * as Matching from "./Matching.ts"
import * as Reconciliations from "./Reconciliations.ts"

/**
 * Banking (spec 4.5, 4.6): bank accounts, statement imports and feeds, bank lines (categorized
 * through the ledger's governed path), rules, matching and reconciliations.
 */
export const area = Area.make({
  name: "banking",
  operations: Banking.operations,
  handlers: [
    ...BankAccounts.handlers,
    ...Imports.handlers,
    ...Matching.handlers,
    ...BankLines.handlers,
    ...BankRules.handlers,
    ...BankFeeds.handlers,
    ...Reconciliations.handlers
  ],
  proposalKinds: { bank_line: BankLines.proposalKind, bank_transfer: Matching.transferProposalKind },
  protections: [BankAccounts.ledgerAccountProtection],
  // A reversed entry (a void, a reversal) releases the bank lines matched to it (issue 19 item 2).
  reversalHooks: [({ entryId }) => Effect.asVoid(BankLineLinks.releaseEntry(entryId))],
  events: ["reconciliation.finished"]
})

/** Bank lines as the bank side of a payment, for the sales area. */
export * as BankLineLinks from "./BankLineLinks.ts"
