/**
 * The engine's ports (`@ledger/engine/ports`), for servers, embedders and @ledger/testkit: provide
 * an adapter of each (or `layerUnconfigured` for those a deployment has none of) to the
 * engine's layer. Their fakes live in @ledger/testkit (`FakeAggregator`, `MemoryMail`).
 */
export {
  Aggregator,
  AggregatorFailure,
  type FeedAccountInfo,
  type FeedTransaction,
  type SyncPage
} from "./Aggregator.ts"
export { Entropy } from "./Entropy.ts"
export { type Attachment, Mail, MailError, type OutgoingMessage } from "./Mail.ts"
export { type All, type Engine, layerUnconfigured } from "./Ports.ts"
export { TokenSealer } from "./TokenSealer.ts"
