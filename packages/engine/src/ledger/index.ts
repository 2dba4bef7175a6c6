import { Ledger } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as AccountProtections from "./AccountProtections.ts"
import * as Accounts from "./Accounts.ts"
import * as JournalBatch from "./JournalBatch.ts"
import * as JournalEntries from "./JournalEntries.ts"
import * as Periods from "./Periods.ts"
import * as Proposals from "./Proposals.ts"
import * as Setup from "./Setup.ts"

/**
 * The books: the chart of accounts, periods, journal entries and the proposals of the governed
 * path. The ledger imports no other area: what others post goes through `Governed`, and what they
 * add to the ledger's rules (proposal kinds, account protections) comes from their own `Area`.
 * What other areas may use of the ledger is exported below, and only that.
 */
export const area = Area.make({
  name: "ledger",
  operations: Ledger.operations,
  handlers: [...Accounts.handlers, ...Periods.handlers, ...JournalEntries.handlers, ...Proposals.handlers],
  proposalKinds: { journal_entry: JournalEntries.proposalKind },
  protections: AccountProtections.checks,
  setupSteps: [Setup.step],
  batchWriters: { proposeJournalEntry: JournalBatch.writer },
  events: ["entry.posted", "entry.reversed", "proposal.created", "proposal.decided", "period.status_changed"]
})

export * as AccountStore from "./AccountStore.ts"
export * as FiscalYear from "./FiscalYear.ts"
export * as Governed from "./Governed.ts"
export * as JournalEntryRules from "./JournalEntryRules.ts"
export * as JournalEntryStore from "./JournalEntryStore.ts"
