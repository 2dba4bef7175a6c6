import { AiConsent } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Consents from "./Consents.ts"

/** AI consent: section 7216 records (spec 3-endpoints-b 4.4): a handler for every operation the api's ai-consent area declares. */
export const area = Area.make({
  name: "ai-consent",
  operations: AiConsent.operations,
  handlers: [...Consents.handlers]
})

export * as ConsentRules from "./ConsentRules.ts"
