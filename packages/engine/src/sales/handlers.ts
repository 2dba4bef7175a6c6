import type { Handler } from "../kernel/Handler.ts"
import * as AgingHandlers from "./AgingHandlers.ts"
import * as ContactHandlers from "./ContactHandlers.ts"
import * as DocumentHandlers from "./DocumentHandlers.ts"
import * as EmailHandlers from "./EmailHandlers.ts"
import * as EstimateHandlers from "./EstimateHandlers.ts"
import * as ItemHandlers from "./ItemHandlers.ts"
import * as PaymentHandlers from "./PaymentHandlers.ts"
import * as RecurringHandlers from "./RecurringHandlers.ts"
import * as TaxHandlers from "./TaxHandlers.ts"

/** The sales area's handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = [
  ...ContactHandlers.handlers,
  ...ItemHandlers.handlers,
  ...TaxHandlers.handlers,
  ...DocumentHandlers.handlers,
  ...PaymentHandlers.handlers,
  ...EstimateHandlers.handlers,
  ...RecurringHandlers.handlers,
  ...EmailHandlers.handlers,
  ...AgingHandlers.handlers
]
