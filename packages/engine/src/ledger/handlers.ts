import type { Handler } from "../kernel/Handler.ts"
import * as Accounts from "./Accounts.ts"
import * as JournalEntries from "./JournalEntries.ts"
import * as Periods from "./Periods.ts"
import * as Proposals from "./Proposals.ts"

/** The ledger area's handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = [
  ...Accounts.handlers,
  ...Periods.handlers,
  ...JournalEntries.handlers,
  ...Proposals.handlers
]
