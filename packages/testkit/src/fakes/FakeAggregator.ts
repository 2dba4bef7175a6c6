import { Effect, Layer } from "effect"
import { Aggregator, AggregatorFailure, type FeedAccountInfo, type FeedTransaction, type SyncPage } from "@ledger/engine/ports"

/**
 * The bank-feed aggregator port's fake, in memory, scripted by a test (a test ledger's
 * `providers.aggregator` is one): institutions with accounts, transactions added, changed and
 * removed, pending ones that post, and an item that needs its person to log in again. Its sync
 * cursor is the position in the item's change log, so a sync replays exactly what happened since
 * the last one, and a null cursor gives the item's current transactions, the way real aggregators
 * answer a first sync.
 */

interface Item {
  readonly itemId: string
  readonly accessToken: string
  readonly institution: string
  readonly accounts: Array<FeedAccountInfo>
  readonly transactions: Map<string, FeedTransaction>
  readonly log: Array<{ readonly kind: "added" | "modified" | "removed"; readonly transaction: FeedTransaction }>
  loginRequired: boolean
}

export interface FakeAggregator {
  /** The port, to provide wherever the engine runs. */
  readonly layer: Layer.Layer<Aggregator>
  readonly service: Aggregator["Service"]
  /** A bank login the person completes in the widget: the public token it hands back, and the item. */
  readonly connect: (input: { readonly institution: string; readonly accounts: ReadonlyArray<FeedAccountInfo> }) => {
    readonly publicToken: string
    readonly itemId: string
  }
  readonly add: (itemId: string, transaction: Omit<FeedTransaction, "pending" | "pendingTransactionId"> & {
    readonly pending?: boolean
  }) => void
  /** A pending transaction posts: it is removed and its posted form added, naming it. */
  readonly post: (itemId: string, pendingId: string, posted: { readonly transactionId: string; readonly date?: string; readonly amountCents?: number }) => void
  readonly modify: (itemId: string, transactionId: string, changes: Partial<Omit<FeedTransaction, "transactionId" | "accountId">>) => void
  readonly remove: (itemId: string, transactionId: string) => void
  readonly setLoginRequired: (itemId: string, required: boolean) => void
  /** Makes the next call of any kind fail as the aggregator being down. */
  readonly failNext: () => void
  readonly linkTokensIssued: () => number
}

export const make = (): FakeAggregator => {
  const items = new Map<string, Item>()
  const byToken = new Map<string, Item>()
  const publicTokens = new Map<string, Item>()
  let sequence = 0
  let linkTokens = 0
  let failing = false

  const itemOf = (itemId: string): Item => {
    const item = items.get(itemId)
    if (item === undefined) throw new Error(`no fake item ${itemId}`)
    return item
  }

  const guard = <A>(accessToken: string, use: (item: Item) => A): Effect.Effect<A, AggregatorFailure> =>
    Effect.suspend(() => {
      if (failing) {
        failing = false
        return Effect.fail(new AggregatorFailure({ code: "unavailable", message: "The aggregator is unavailable." }))
      }
      const item = byToken.get(accessToken)
      if (item === undefined) return Effect.fail(new AggregatorFailure({ code: "invalid_token", message: "Unknown access token." }))
      if (item.loginRequired) {
        return Effect.fail(new AggregatorFailure({ code: "login_required", message: "The bank needs the person to log in again." }))
      }
      return Effect.succeed(use(item))
    })

  const service = Aggregator.of({
    configured: true,
    createLinkToken: (input) =>
      Effect.suspend(() => {
        if (failing) {
          failing = false
          return Effect.fail(new AggregatorFailure({ code: "unavailable", message: "The aggregator is unavailable." }))
        }
        linkTokens++
        const mode = input.accessToken === null ? "link" : "update"
        return Effect.succeed({
          linkToken: `link-fake-${mode}-${linkTokens}`,
          expiresAt: new Date(Date.UTC(2100, 0, 1)).toISOString()
        })
      }),
    exchangePublicToken: (publicToken) =>
      Effect.suspend(() => {
        const item = publicTokens.get(publicToken)
        if (failing || item === undefined) {
          failing = false
          return Effect.fail(new AggregatorFailure({ code: "invalid_token", message: "The public token is not valid." }))
        }
        publicTokens.delete(publicToken)
        return Effect.succeed({ accessToken: item.accessToken, itemId: item.itemId, institution: item.institution })
      }),
    accounts: (accessToken) => guard(accessToken, (item) => item.accounts.map((account) => ({ ...account }))),
    sync: (accessToken, cursor) =>
      guard(accessToken, (item): SyncPage => {
        if (cursor === null) {
          return {
            added: Array.from(item.transactions.values()),
            modified: [],
            removed: [],
            nextCursor: String(item.log.length),
            hasMore: false
          }
        }
        const since = item.log.slice(Number(cursor))
        return {
          added: since.filter((change) => change.kind === "added").map((change) => change.transaction),
          modified: since.filter((change) => change.kind === "modified").map((change) => change.transaction),
          removed: since.filter((change) => change.kind === "removed").map((change) => change.transaction.transactionId),
          nextCursor: String(item.log.length),
          hasMore: false
        }
      })
  })

  const record = (item: Item, kind: "added" | "modified" | "removed", transaction: FeedTransaction) => {
    item.log.push({ kind, transaction })
    if (kind === "removed") item.transactions.delete(transaction.transactionId)
    else item.transactions.set(transaction.transactionId, transaction)
  }

  return {
    layer: Layer.succeed(Aggregator)(service),
    service,
    connect: ({ institution, accounts }) => {
      sequence++
      const item: Item = {
        itemId: `item-${sequence}`,
        accessToken: `access-fake-${sequence}`,
        institution,
        accounts: accounts.map((account) => ({ ...account })),
        transactions: new Map(),
        log: [],
        loginRequired: false
      }
      items.set(item.itemId, item)
      byToken.set(item.accessToken, item)
      const publicToken = `public-fake-${sequence}`
      publicTokens.set(publicToken, item)
      return { publicToken, itemId: item.itemId }
    },
    add: (itemId, transaction) =>
      record(itemOf(itemId), "added", { pending: false, pendingTransactionId: null, ...transaction }),
    post: (itemId, pendingId, posted) => {
      const item = itemOf(itemId)
      const pending = item.transactions.get(pendingId)
      if (pending === undefined) throw new Error(`no pending transaction ${pendingId}`)
      record(item, "removed", pending)
      record(item, "added", {
        ...pending,
        transactionId: posted.transactionId,
        date: posted.date ?? pending.date,
        amountCents: posted.amountCents ?? pending.amountCents,
        pending: false,
        pendingTransactionId: pendingId
      })
    },
    modify: (itemId, transactionId, changes) => {
      const item = itemOf(itemId)
      const current = item.transactions.get(transactionId)
      if (current === undefined) throw new Error(`no transaction ${transactionId}`)
      record(item, "modified", { ...current, ...changes })
    },
    remove: (itemId, transactionId) => {
      const item = itemOf(itemId)
      const current = item.transactions.get(transactionId)
      if (current === undefined) throw new Error(`no transaction ${transactionId}`)
      record(item, "removed", current)
    },
    setLoginRequired: (itemId, required) => {
      itemOf(itemId).loginRequired = required
    },
    failNext: () => {
      failing = true
    },
    linkTokensIssued: () => linkTokens
  }
}
