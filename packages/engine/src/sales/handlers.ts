import type { Handler } from "../Handler.ts"
import * as ContactHandlers from "./ContactHandlers.ts"
import * as DocumentHandlers from "./DocumentHandlers.ts"
import * as ItemHandlers from "./ItemHandlers.ts"
import * as PaymentHandlers from "./PaymentHandlers.ts"
import * as TaxHandlers from "./TaxHandlers.ts"

/** The sales area's handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = [
  ...ContactHandlers.handlers,
  ...ItemHandlers.handlers,
  ...TaxHandlers.handlers,
  ...DocumentHandlers.handlers,
  ...PaymentHandlers.handlers
]
