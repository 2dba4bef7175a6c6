import * as Accounts from "./Accounts.ts"
import * as JournalEntries from "./JournalEntries.ts"
import * as Periods from "./Periods.ts"
import * as Proposals from "./Proposals.ts"

export * as Accounts from "./Accounts.ts"
export * as Governed from "./Governed.ts"
export * as JournalEntries from "./JournalEntries.ts"
export * as Periods from "./Periods.ts"
export * as Proposals from "./Proposals.ts"
export * as Records from "./Records.ts"

/** The ledger area's operations, added to the catalog. */
export const operations = [
  Accounts.createAccount,
  Accounts.listAccounts,
  Accounts.updateAccount,
  Accounts.setDefaultAccounts,
  Accounts.listStarterCharts,
  Accounts.applyStarterChart,
  Accounts.createClass,
  Accounts.listClasses,
  Periods.createPeriod,
  Periods.listPeriods,
  Periods.setPeriodStatus,
  Periods.createFiscalYearPeriods,
  Periods.setFiscalYearStatus,
  JournalEntries.proposeJournalEntry,
  JournalEntries.getJournalEntry,
  JournalEntries.reverseJournalEntry,
  Proposals.listProposals,
  Proposals.getProposal,
  Proposals.approveProposal,
  Proposals.rejectProposal
] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"
