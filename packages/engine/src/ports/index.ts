/**
 * The banking area's ports and their test doubles, for servers, embedders and @ledger/testkit:
 * provide `Aggregator` (or `FakeAggregator.make().layer`) and `TokenSealer.layerFromKey(masterKey)`
 * to the engine's layer and the bank-feed operations work; leave them out and those operations
 * answer 503 `bank_feeds_not_configured`.
 */
export * as Aggregator from "./Aggregator.ts"
export * as FakeAggregator from "../banking/FakeAggregator.ts"
export { TokenSealer } from "./TokenSealer.ts"
export * as BankLineLinks from "../banking/BankLineLinks.ts"
