import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { Events, Webhooks } from "@ledger/api"
import { Ledger, Outbox } from "@ledger/engine"

/**
 * Events declared once (issue 38 item 10, ADR 2010): each area declares its event types in its
 * contract folder (`packages/api/src/<area>/Events.ts`); its engine `Area` names those
 * declarations; every type the engine's code emits is declared (so subscribable), and every
 * declared type is emitted somewhere. Read from the engine's source with TypeScript's parser.
 */

const eventName = /^[a-z][a-z_]*\.[a-z][a-z_]*$/

const engineSource = fileURLToPath(new URL("../../packages/engine/src/", import.meta.url))

/** The engine's TypeScript files, relative to its `src/`. */
const engineFiles = (): Array<string> =>
  (readdirSync(engineSource, { recursive: true }) as Array<string>).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts")).sort()

/**
 * The event names the engine's code hands the outbox: string literals in the arguments of an
 * `emit(...)` call (`Outbox.emit` or an area's own wrapper of `Outbox.insert`) and in an
 * `event_type:` property (a pending event built by hand, as group commit does), by file.
 */
const emittedInSource = (): Map<string, Set<string>> => {
  const found = new Map<string, Set<string>>()
  const add = (name: string, file: string) => found.set(name, (found.get(name) ?? new Set()).add(file))
  const literalsIn = (node: ts.Node, file: string) => {
    if (ts.isStringLiteralLike(node) && eventName.test(node.text)) add(node.text, file)
    ts.forEachChild(node, (child) => literalsIn(child, file))
  }
  for (const file of engineFiles()) {
    const source = ts.createSourceFile(file, readFileSync(join(engineSource, file), "utf8"), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : ""
        if (name === "emit") for (const argument of node.arguments) literalsIn(argument, file)
      }
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === "event_type") literalsIn(node.initializer, file)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

describe("event types, declared once by their areas", () => {
  const emitted = emittedInSource()

  it("every type the engine emits is declared and subscribable", () => {
    // The test delivery's type is spec 6.1's own: sent at once, never in the outbox, never subscribed to.
    const undeclared = [...emitted.keys()].filter((type) => !Events.isEventType(type) && type !== Webhooks.Shared.testEventType)
    expect(undeclared.map((type) => `${type} (${[...emitted.get(type)!].join(", ")})`)).toEqual([])
    for (const type of emitted.keys()) {
      if (type === Webhooks.Shared.testEventType) continue
      expect(Webhooks.Shared.Subscription.literals, type).toContain(type)
    }
  })

  it("every declared type is emitted somewhere", () => {
    expect(Events.eventTypes.filter((type) => !emitted.has(type))).toEqual([])
  })

  it("lists spec 6.1's fifteen types and the other areas' in one catalog, each once", () => {
    const spec = [
      "entry.posted", "entry.reversed", "invoice.created", "invoice.paid", "invoice.voided", "bill.created", "bill.paid", "bill.voided",
      "payment.received", "payment.made", "proposal.created", "proposal.decided", "reconciliation.finished", "period.status_changed",
      "integration.error"
    ]
    for (const type of spec) expect(Events.eventTypes).toContain(type)
    for (const type of ["crypto.remeasured", "payroll.imported", "mileage.reimbursement_posted", "estimated_tax.payment_recorded"]) {
      expect(Events.eventTypes).toContain(type)
    }
    expect(new Set(Events.eventTypes).size).toBe(Events.eventTypes.length)
    // An endpoint naming every type and `*` fits the bound the database shares (migration 0038).
    expect(Events.eventTypes.length + 1).toBeLessThanOrEqual(Webhooks.Shared.subscriptionsMax)
    for (const type of Events.eventTypes) expect(Events.declared[type].emittedBy.length, type).toBeGreaterThan(10)
  })

  it("each engine area names its own contract's declarations, and no other area's", () => {
    const byEngine = new Map<string, Array<string>>()
    for (const area of Ledger.areas) if (area.events.length > 0) byEngine.set(area.name, [...area.events])
    const byContract = new Map(Object.entries(Events.byArea).map(([area, events]) => [area, Object.keys(events)]))
    expect(Object.fromEntries(byEngine)).toEqual(Object.fromEntries(byContract))
  })

  it("refuses, at the type check, an event no area declares", () => {
    // Never run: the `@ts-expect-error` below fails `pnpm typecheck` if the outbox took any string.
    const undeclared = () =>
      Outbox.emit(
        // @ts-expect-error: no area declares `nothing.happened`
        "nothing.happened",
        {}
      )
    expect(typeof undeclared).toBe("function")
  })
})
