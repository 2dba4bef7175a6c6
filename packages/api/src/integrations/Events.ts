import * as Event from "../Event.ts"

/** Integrations' events (spec 6.1). */
export const events = Event.declare({
  "integration.error": { emittedBy: "A sync of an integration's connection that ends with errors, or whose job gives up (the connection's `last_error`)." }
})
