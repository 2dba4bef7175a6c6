import { events as banking } from "./banking/Events.ts"
import { events as crypto } from "./crypto/Events.ts"
import { events as estimatedTaxes } from "./estimated-taxes/Events.ts"
import * as Event from "./Event.ts"
import { events as integrations } from "./integrations/Events.ts"
import { events as ledger } from "./ledger/Events.ts"
import { events as mileage } from "./mileage/Events.ts"
import { events as payroll } from "./payroll/Events.ts"
import { events as sales } from "./sales/Events.ts"

/**
 * Every event type Ledger emits, each declared once by its area in `<area>/Events.ts` (ADR 2010).
 * Webhook subscriptions (`POST /v1/webhooks`), `GET /v1/webhooks`, OpenAPI's `webhooks` and the
 * engine's outbox (`Outbox.emit` takes only these) read this one list. An area that emits events
 * adds ONE line here, and names the same declarations in its engine `Area` value.
 */
export const byArea = {
  ledger,
  sales,
  banking,
  integrations,
  payroll,
  mileage,
  "estimated-taxes": estimatedTaxes,
  crypto
} as const

export const declared = Event.gather(byArea)

export type EventType = keyof typeof declared

/** Every declared type, in the areas' order. */
export const eventTypes = Object.keys(declared) as ReadonlyArray<EventType>

export const isEventType = (type: string): type is EventType => Object.hasOwn(declared, type)
