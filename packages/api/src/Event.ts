/**
 * An event type as an area declares it (spec 6.1, ADR 2010): in the area's own `Events.ts`, once,
 * with which operations emit it. `Events.ts` gathers every area's declarations; webhook
 * subscriptions, `GET /v1/webhooks`, OpenAPI's `webhooks` and the engine's outbox read that list,
 * so an event cannot be emitted without being subscribable, nor listed without being emitted.
 */

/** `<resource>.<what happened>`, lower case with underscores (`entry.posted`, `crypto.receipt_seen`). */
export type Name = `${string}.${string}`

export interface Declaration {
  /** Which operations (or jobs) emit it, as `GET /v1/webhooks` and OpenAPI say. */
  readonly emittedBy: string
}

/** One area's events, by type. */
export type Declarations = { readonly [type: Name]: Declaration }

/** An area's declarations, kept as written (their types are the area's event names). */
export const declare = <const D extends Declarations>(events: D): D => events

/** The event names of some areas' declarations, as one union. */
export type NamesOf<ByArea extends Readonly<Record<string, Declarations>>> = {
  [A in keyof ByArea]: keyof ByArea[A] & Name
}[keyof ByArea]

const namePattern = /^[a-z][a-z_]*\.[a-z][a-z_]*$/

/**
 * Every area's declarations as one record, in the areas' order. A name declared by two areas or
 * not of the `<resource>.<what>` form is a programmer error, thrown when the catalog loads.
 */
export const gather = <const ByArea extends Readonly<Record<string, Declarations>>>(
  byArea: ByArea
): { readonly [K in NamesOf<ByArea>]: Declaration & { readonly area: string } } => {
  const all: Record<string, Declaration & { readonly area: string }> = {}
  for (const [area, events] of Object.entries(byArea)) {
    for (const [type, declaration] of Object.entries(events)) {
      if (!namePattern.test(type)) throw new Error(`Event ${type} of area ${area} is not <resource>.<what>`)
      const earlier = all[type]
      if (earlier !== undefined) throw new Error(`Event ${type} is declared by ${earlier.area} and ${area}`)
      all[type] = { ...declaration, area }
    }
  }
  return all as { readonly [K in NamesOf<ByArea>]: Declaration & { readonly area: string } }
}
