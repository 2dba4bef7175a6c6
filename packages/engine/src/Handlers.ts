import * as Banking from "./banking/handlers.ts"
import type { Handler } from "./kernel/Handler.ts"
import * as Ledger from "./ledger/handlers.ts"
import * as Reports from "./reports/handlers.ts"
import * as Sales from "./sales/handlers.ts"
import * as AuditLog from "./administration/AuditLog.ts"
import * as Companies from "./administration/Companies.ts"
import * as Keys from "./administration/ApiKeys.ts"
import * as Meta from "./administration/Meta.ts"
import * as People from "./administration/People.ts"

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
