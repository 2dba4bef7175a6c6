import { Clock, Data, Effect, Layer, Schema } from "effect"
import { Administration, Ledger as LedgerApi, type Operation } from "@ledger/api"
import { Entropy, Ledger, Operator, Ports } from "@ledger/engine"
import { Storage } from "@ledger/server"

/**
 * A small bookkeeping program that embeds the engine: every operation goes through the same
 * pipeline a server runs (credentials, scopes, idempotency, audit, the governed write path), but
 * there is no HTTP: `Ledger.call` hands the request to the engine's Dispatcher directly.
 */

/** A refusal from the engine, with the spec's error body. */
export class Refused extends Data.TaggedError("Refused")<{
  readonly operationId: string
  readonly status: number
  readonly body: unknown
}> {}

interface Request {
  readonly credential: string
  readonly idempotencyKey?: string
  readonly path?: Record<string, unknown>
  readonly query?: Record<string, unknown>
  readonly body?: unknown
}

/**
 * Calls one operation and decodes its answer with the operation's own success schema from
 * @ledger/api, so the result is typed and checked.
 */
const invoke = <O extends Operation.Any>(operation: O, request: Request) =>
  Effect.gen(function*() {
    const outcome = yield* Ledger.call(operation.id, request)
    if (outcome.status >= 400) return yield* new Refused({ operationId: operation.id, status: outcome.status, body: outcome.body })
    return yield* Schema.decodeUnknownEffect(operation.success as unknown as Schema.Codec<O["success"]["Type"]>)(outcome.body).pipe(Effect.orDie)
  })

export interface Summary {
  readonly companyId: string
  readonly entryIds: ReadonlyArray<number>
  /** Balances in cents by account code, for the accounts the program touched. */
  readonly balances: Readonly<Record<string, number>>
  readonly auditActions: ReadonlyArray<string>
}

/** The operator token of this embedded deployment; a real program reads it from its secrets. */
export const operatorToken = "embedded-operator-token-for-the-example"

/**
 * Opens a company (once: the Idempotency-Key makes a second run replay the first), records the
 * owner's investment and a month's rent, and reads the balances and the audit log back.
 */
export const program = Effect.gen(function*() {
  const now = new Date(yield* Clock.currentTimeMillis)
  yield* Operator.ensure(operatorToken, now.toISOString())

  const created = yield* invoke(Administration.Companies.createCompany, {
    credential: operatorToken,
    idempotencyKey: "example-embed-company",
    body: { name: "Corner Bakery", owner_name: "Rosa Diaz", starter_chart: "general" }
  })
  const owner = created.secret
  const today = now.toISOString().slice(0, 10)

  const entries = []
  for (
    const [key, memo, debit, credit, cents] of [
      ["example-embed-investment", "Owner's investment", "1010", "3010", 25_000_00],
      ["example-embed-rent", "Rent for the month", "6080", "1010", 1_800_00]
    ] as const
  ) {
    entries.push(
      yield* invoke(LedgerApi.JournalEntries.proposeJournalEntry, {
        credential: owner,
        idempotencyKey: key,
        body: { entry_date: today, memo, lines: [{ account: debit, debit_cents: cents }, { account: credit, credit_cents: cents }] }
      })
    )
  }

  const accounts = yield* invoke(LedgerApi.Accounts.listAccounts, {
    credential: owner,
    query: { include_balances: true, limit: 1_000 }
  })
  const touched = new Set(["1010", "3010", "6080"])
  const balances = Object.fromEntries(
    accounts.data.filter((account) => touched.has(account.code)).map((account) => [account.code, account.balance_cents ?? 0])
  )

  const audit = yield* invoke(Administration.AuditLog.listAuditEvents, { credential: owner, query: { limit: 20 } })
  return {
    companyId: created.company.company_id,
    entryIds: entries.map((entry) => (entry as { id: number }).id),
    balances,
    auditActions: audit.data.map((event) => event.action)
  } satisfies Summary
})

/**
 * The engine over embedded PGlite: in memory, or in a folder that keeps the books between runs.
 * Rate limits are for servers; an embedding program has no callers to hold back. It talks to no
 * outside provider (bank-feed aggregator, mail), so every port is the unconfigured one.
 */
export const layer = (dataDir: string) =>
  Layer.mergeAll(Ledger.layer({ storage: "pglite", rateLimits: false }), Entropy.layer).pipe(
    Layer.provide(Ports.layerUnconfigured),
    Layer.provideMerge(Storage.layer({ dataDir }))
  )

/** Runs the program on `dataDir` ("memory" for none) and closes the store. */
export const run = (dataDir = "memory"): Promise<Summary> => Effect.runPromise(program.pipe(Effect.provide(layer(dataDir))))
