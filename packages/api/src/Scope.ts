import { Schema } from "effect"

/** Scopes, in order of power (spec 2, 5.2). */
export const scopes = ["read", "propose", "approve", "admin"] as const
export type Scope = typeof scopes[number]
export const Scope = Schema.Literals(scopes).annotate({
  description: "A scope: read < propose < approve < admin."
})

export const rank = (scope: Scope): number => scopes.indexOf(scope)

/** True when a holder of `held` may use an operation needing `needed`. */
export const satisfies = (held: ReadonlyArray<Scope>, needed: Scope): boolean =>
  held.some((scope) => rank(scope) >= rank(needed))

/** The highest scope in a set, or undefined for none. */
export const highest = (held: ReadonlyArray<Scope>): Scope | undefined =>
  held.reduce<Scope | undefined>((best, scope) => best === undefined || rank(scope) > rank(best) ? scope : best, undefined)
