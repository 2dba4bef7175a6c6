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

/** The fake's memory: its items by id, access token and public token not yet exchanged. */
interface State {
  readonly items: Map<string, Item>
  readonly byToken: Map<string, Item>
  readonly publicTokens: Map<string, Item>
  sequence: number
  linkTokens: number
  /** The next call fails as the aggregator being down. */
  failing: boolean
}

const itemOf = (state: State, itemId: string): Item => {
  const item = state.items.get(itemId)
  if (item === undefined) throw new Error(`no fake item ${itemId}`)
  return item
}

const unavailable = () => new AggregatorFailure({ code: "unavailable", message: "The aggregator is unavailable." })

/** Runs `use` on the item of an access token, unless the fake is failing, the token unknown or the login due. */
const guard = <A>(state: State, accessToken: string, use: (item: Item) => A): Effect.Effect<A, AggregatorFailure> =>
  Effect.suspend(() => {
    if (state.failing) {
      state.failing = false
      return Effect.fail(unavailable())
    }
    const item = state.byToken.get(accessToken)
    if (item === undefined) return Effect.fail(new AggregatorFailure({ code: "invalid_token", message: "Unknown access token." }))
    if (item.loginRequired) {
      return Effect.fail(new AggregatorFailure({ code: "login_required", message: "The bank needs the person to log in again." }))
    }
    return Effect.succeed(use(item))
  })

/** A sync page: from a null cursor the item's current transactions, else its changes since the cursor. */
const syncPage = (item: Item, cursor: string | null): SyncPage => {
  if (cursor === null) {
    return { added: Array.from(item.transactions.values()), modified: [], removed: [], nextCursor: String(item.log.length), hasMore: false }
  }
  const since = item.log.slice(Number(cursor))
  return {
    added: since.filter((change) => change.kind === "added").map((change) => change.transaction),
    modified: since.filter((change) => change.kind === "modified").map((change) => change.transaction),
    removed: since.filter((change) => change.kind === "removed").map((change) => change.transaction.transactionId),
    nextCursor: String(item.log.length),
    hasMore: false
  }
}

/** The port over the fake's memory. */
const serviceOf = (state: State): Aggregator["Service"] =>
  Aggregator.of({
    configured: true,
    createLinkToken: (input) =>
      Effect.suspend(() => {
        if (state.failing) {
          state.failing = false
          return Effect.fail(unavailable())
        }
        state.linkTokens++
        const mode = input.accessToken === null ? "link" : "update"
        return Effect.succeed({
          linkToken: `link-fake-${mode}-${state.linkTokens}`,
          expiresAt: new Date(Date.UTC(2100, 0, 1)).toISOString()
        })
      }),
    exchangePublicToken: (publicToken) =>
      Effect.suspend(() => {
        const item = state.publicTokens.get(publicToken)
        if (state.failing || item === undefined) {
          state.failing = false
          return Effect.fail(new AggregatorFailure({ code: "invalid_token", message: "The public token is not valid." }))
        }
        state.publicTokens.delete(publicToken)
        return Effect.succeed({ accessToken: item.accessToken, itemId: item.itemId, institution: item.institution })
      }),
    accounts: (accessToken) => guard(state, accessToken, (item) => item.accounts.map((account) => ({ ...account }))),
    sync: (accessToken, cursor) => guard(state, accessToken, (item) => syncPage(item, cursor))
  })

const record = (item: Item, kind: "added" | "modified" | "removed", transaction: FeedTransaction) => {
  item.log.push({ kind, transaction })
  if (kind === "removed") item.transactions.delete(transaction.transactionId)
  else item.transactions.set(transaction.transactionId, transaction)
}

/** A bank login completed: a new item, its access token and the public token the widget hands back. */
const connect = (state: State, institution: string, accounts: ReadonlyArray<FeedAccountInfo>) => {
  state.sequence++
  const item: Item = {
    itemId: `item-${state.sequence}`,
    accessToken: `access-fake-${state.sequence}`,
    institution,
    accounts: accounts.map((account) => ({ ...account })),
    transactions: new Map(),
    log: [],
    loginRequired: false
  }
  state.items.set(item.itemId, item)
  state.byToken.set(item.accessToken, item)
  const publicToken = `public-fake-${state.sequence}`
  state.publicTokens.set(publicToken, item)
  return { publicToken, itemId: item.itemId }
}

/** The transaction `transactionId` of an item, which must exist. */
const transactionOf = (item: Item, transactionId: string, what: string): FeedTransaction => {
  const found = item.transactions.get(transactionId)
  if (found === undefined) throw new Error(`no ${what} ${transactionId}`)
  return found
}

export const make = (): FakeAggregator => {
  const state: State = { items: new Map(), byToken: new Map(), publicTokens: new Map(), sequence: 0, linkTokens: 0, failing: false }
  const service = serviceOf(state)
  return {
    layer: Layer.succeed(Aggregator)(service),
    service,
    connect: ({ institution, accounts }) => connect(state, institution, accounts),
    add: (itemId, transaction) =>
      record(itemOf(state, itemId), "added", { pending: false, pendingTransactionId: null, ...transaction }),
    post: (itemId, pendingId, posted) => {
      const item = itemOf(state, itemId)
      const pending = transactionOf(item, pendingId, "pending transaction")
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
      const item = itemOf(state, itemId)
      record(item, "modified", { ...transactionOf(item, transactionId, "transaction"), ...changes })
    },
    remove: (itemId, transactionId) => {
      const item = itemOf(state, itemId)
      record(item, "removed", transactionOf(item, transactionId, "transaction"))
    },
    setLoginRequired: (itemId, required) => {
      itemOf(state, itemId).loginRequired = required
    },
    failNext: () => {
      state.failing = true
    },
    linkTokensIssued: () => state.linkTokens
  }
}
