import type { Handler } from "../kernel/Handler.ts"
import * as BankAccounts from "./BankAccounts.ts"
import * as BankFeeds from "./BankFeeds.ts"
import * as BankLines from "./BankLines.ts"
import * as Imports from "./Imports.ts"
import * as Matching from "./Matching.ts"
import * as Reconciliations from "./Reconciliations.ts"
import * as Rules from "./Rules.ts"

/** The banking area's handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = [
  ...BankAccounts.handlers,
  ...Imports.handlers,
  ...Matching.handlers,
  ...BankLines.handlers,
  ...Rules.handlers,
  ...BankFeeds.handlers,
  ...Reconciliations.handlers
]
