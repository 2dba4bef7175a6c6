import { Schema } from "effect"
import { DateString, Empty, Id, PageQuery, Reason } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { area, NewBankAccount } from "./BankAccounts.ts"
import { BankAccount, BankFeed, BankFeedList, LinkToken, SyncResult } from "./Records.ts"

const IdPath = Schema.Struct({ id: Id })
const FeedAccountId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax))
const feedErrors = ["bad_gateway", "bank_feeds_not_configured"] as const

export const listBankFeeds = Operation.make({
  id: "listBankFeeds",
  method: "GET",
  path: "/v1/bank-feeds",
  area,
  summary: "Bank feeds with their accounts, status and last sync; whether feeds are configured; the plan's limit.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: BankFeedList
})

export const createBankFeed = Operation.make({
  id: "createBankFeed",
  method: "POST",
  path: "/v1/bank-feeds",
  area,
  summary: "Exchange the aggregator's public token for a feed; its access token is stored sealed. Nothing imports yet.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    public_token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2_000)).annotate({
      description: "The token the aggregator's link flow gave; exchanged for the feed's access, which is stored sealed."
    })
  }),
  success: BankFeed,
  errors: [...feedErrors]
})

export const getBankFeed = Operation.make({
  id: "getBankFeed",
  method: "GET",
  path: "/v1/bank-feeds/{id}",
  area,
  summary: "One bank feed with its accounts.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: BankFeed
})

export const createBankFeedLinkToken = Operation.make({
  id: "createBankFeedLinkToken",
  method: "POST",
  path: "/v1/bank-feeds/link-token",
  area,
  summary: "A short-lived link token for the aggregator's widget (with bank_feed_id: reconnect in update mode).",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    bank_feed_id: Schema.optionalKey(Id),
    account_selection: Schema.optionalKey(Schema.Boolean.annotate({ description: "Let the person choose again which accounts the feed covers." }))
  }),
  success: LinkToken,
  errors: [...feedErrors]
})

export const linkBankFeedAccount = Operation.make({
  id: "linkBankFeedAccount",
  method: "POST",
  path: "/v1/bank-feeds/{id}/accounts/link",
  area,
  summary: "Link a feed account to a bank account (existing or new); counts against the plan's feed-account limit.",
  description: "import_from defaults to the day after the last file-imported line, else 24 months back. " +
    "Transactions already imported from a file are not imported again.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({
    account: FeedAccountId,
    bank_account_id: Schema.optionalKey(Id),
    new_bank_account: Schema.optionalKey(NewBankAccount.annotate({ description: "A bank account to create for the feed account, instead of bank_account_id." })),
    import_from: Schema.optionalKey(DateString)
  }),
  success: Schema.Struct({ bank_feed: BankFeed, bank_account: BankAccount }),
  errors: [...feedErrors, "feed_account_limit", "conflict", "unknown_account", "inactive_account"]
})

export const unlinkBankFeedAccount = Operation.make({
  id: "unlinkBankFeedAccount",
  method: "POST",
  path: "/v1/bank-feeds/{id}/accounts/unlink",
  area,
  summary: "Stop importing a feed account. Its lines stay.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ account: FeedAccountId, reason: Reason }),
  success: BankFeed
})

export const syncBankFeed = Operation.make({
  id: "syncBankFeed",
  method: "POST",
  path: "/v1/bank-feeds/{id}/sync",
  area,
  summary: "Pull new, changed and removed transactions and import the posted ones; agents may call it.",
  description: "A status of login_required or error says to reconnect; nothing is posted by a sync.",
  scope: "propose",
  mode: "-",
  pathParams: IdPath,
  body: Empty,
  success: SyncResult,
  errors: [...feedErrors]
})

export const reconnectedBankFeed = Operation.make({
  id: "reconnectedBankFeed",
  method: "POST",
  path: "/v1/bank-feeds/{id}/reconnected",
  area,
  summary: "Tell Ledger the feed was re-authorized (after update mode); the aggregator is asked to confirm.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Empty,
  success: BankFeed,
  errors: [...feedErrors]
})

export const setBankFeedSettings = Operation.make({
  id: "setBankFeedSettings",
  method: "POST",
  path: "/v1/bank-feeds/{id}/settings",
  area,
  summary: "Feed settings. include_pending (default off): a posted transaction then replaces its pending line; changing it replays history.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  pathParams: IdPath,
  // Optional (spec 4.5): a setting left out keeps its value.
  body: Schema.Struct({ include_pending: Schema.optionalKey(Schema.Boolean) }),
  success: Schema.Struct({ bank_feed: BankFeed, replay: Schema.NullOr(SyncResult) }),
  errors: [...feedErrors]
})

export const operations = [
  listBankFeeds,
  createBankFeed,
  getBankFeed,
  createBankFeedLinkToken,
  linkBankFeedAccount,
  unlinkBankFeedAccount,
  syncBankFeed,
  reconnectedBankFeed,
  setBankFeedSettings
] as const
