import { Schema } from "effect"
import { DateString, Id, Timestamp } from "../Common.ts"

/** Bank feeds' records (spec 4.5): a feed, its aggregator accounts, a link token, a sync's result. */

export const feedStatuses = ["active", "login_required", "error"] as const

export const FeedAccount = Schema.Struct({
  account: Schema.String.annotate({ description: "The aggregator's account id." }),
  name: Schema.String,
  mask: Schema.NullOr(Schema.String),
  kind: Schema.String,
  bank_account_id: Schema.NullOr(Id),
  import_from: Schema.NullOr(DateString),
  linked_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "BankFeedAccount" })

export const BankFeed = Schema.Struct({
  id: Id,
  institution: Schema.NullOr(Schema.String),
  status: Schema.Literals(feedStatuses),
  include_pending: Schema.Boolean,
  last_sync_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Schema.String),
  accounts: Schema.Array(FeedAccount),
  created_at: Timestamp
}).annotate({ identifier: "BankFeed" })

export const BankFeedList = Schema.Struct({
  data: Schema.Array(BankFeed),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String),
  feeds_configured: Schema.Boolean.annotate({ description: "Whether this deployment has a bank-feed aggregator." }),
  plan: Schema.String,
  linked_accounts: Schema.Int,
  linked_accounts_limit: Schema.NullOr(Schema.Int).annotate({ description: "null: unlimited." })
}).annotate({ identifier: "BankFeedList" })

export const LinkToken = Schema.Struct({
  link_token: Schema.NullOr(Schema.String).annotate({ description: "Shown once; null on an idempotent replay." }),
  expires_at: Timestamp,
  bank_feed_id: Schema.NullOr(Id)
}).annotate({ identifier: "LinkToken" })

export const SyncResult = Schema.Struct({
  bank_feed_id: Id,
  status: Schema.Literals(feedStatuses),
  added: Schema.Int,
  updated: Schema.Int,
  removed: Schema.Int,
  duplicates: Schema.Int,
  flagged_for_review: Schema.Int,
  message: Schema.NullOr(Schema.String).annotate({ description: "What to do when the feed needs a reconnect." })
}).annotate({ identifier: "BankFeedSyncResult" })
