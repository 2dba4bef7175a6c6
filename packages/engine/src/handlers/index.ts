import * as Banking from "../banking/handlers.ts"
import type { Handler } from "../Handler.ts"
import * as Ledger from "../ledger/handlers.ts"
import * as Reports from "../reports/handlers.ts"
import * as Sales from "../sales/handlers.ts"
import * as AuditLog from "./AuditLog.ts"
import * as Companies from "./Companies.ts"
import * as Keys from "./Keys.ts"
import * as Meta from "./Meta.ts"
import * as People from "./People.ts"

/** Every operation's handler, by operation id. An area adds its module here. */
export const all: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ...Meta.handlers,
  ...Companies.handlers,
  ...People.handlers,
  ...Keys.handlers,
  ...AuditLog.handlers,
  ...Ledger.handlers,
  ...Sales.handlers,
  ...Banking.handlers,
  ...Reports.handlers
])
