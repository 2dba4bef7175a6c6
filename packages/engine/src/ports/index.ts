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
export { type BlobRef, BlobStore, BlobUnavailable, type ObjectStore } from "./BlobStore.ts"
export {
  type ChainPayment,
  ChainFailure,
  ChainWatcher,
  type CryptoAsset,
  CryptoPrices,
  type CryptoRail,
  PriceFailure,
  type WatchRequest
} from "./CryptoRails.ts"
export { CommerceFailure, CommerceProviders, type Grant, type ObjectPage, type SourceLine, type SourceObject } from "./CommerceProviders.ts"
export { Entropy } from "./Entropy.ts"
export {
  type Answer as InformationReturnAnswer,
  FilingFailure,
  InformationReturns,
  type Submission as InformationReturnSubmission,
  type TinMatchResult
} from "./InformationReturns.ts"
export { type Entity as OnlineBooksEntity, entities as onlineBooksEntities, OnlineBooks, OnlineBooksFailure, type OnlineGrant } from "./OnlineBooks.ts"
export { InboxSettings, type ReaderFields, ReaderFailure, type ReaderInput, ReceiptReader } from "./ReceiptReader.ts"
export { type Attachment, Mail, MailError, type OutgoingMessage } from "./Mail.ts"
export * as PaymentProcessorPort from "./PaymentProcessor.ts"
export { PaymentProcessor, ProcessorFailure } from "./PaymentProcessor.ts"
export { type All, type Engine, layerUnconfigured } from "./Ports.ts"
export { TokenSealer } from "./TokenSealer.ts"
export { RelyingParty, type RelyingPartyConfig } from "./RelyingParty.ts"
export {
  addressProblem,
  isPublicAddress,
  literalAddress,
  responseBytesMax,
  responseExcerptBytes,
  type WebhookRequest,
  type WebhookResponse,
  WebhookSendFailure,
  WebhookTransport
} from "./WebhookTransport.ts"
