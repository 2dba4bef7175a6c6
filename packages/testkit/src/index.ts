/**
 * @ledger/testkit — a deterministic Ledger in this process, to test bookkeeping agents against:
 * the real engine, HTTP and MCP, on a copy of a migrated in-memory database, with a clock that
 * moves only when told and seeded ids and secrets.
 *
 *   const ledger = await makeTestLedger({ seed: 7 })
 *   const company = await ledger.createCompany()
 *   const agent = await company.createAgent({ posting_threshold_cents: 50_00 })
 */
export * as Balances from "./Balances.ts"
export { BalanceMismatch } from "./Balances.ts"
export * as FakeAggregator from "./fakes/FakeAggregator.ts"
export * as FakeAggregatorHttp from "./fakes/FakeAggregatorHttp.ts"
export * as FakeCommerce from "./fakes/FakeCommerce.ts"
export * as FakeOnlineBooks from "./fakes/FakeOnlineBooks.ts"
export * as FakePaymentProcessor from "./fakes/FakePaymentProcessor.ts"
export * as FakeChain from "./fakes/FakeChain.ts"
export * as FakeInformationReturns from "./fakes/FakeInformationReturns.ts"
export * as FakeReceiptReader from "./fakes/FakeReceiptReader.ts"
export * as FakeObjectStore from "./fakes/FakeObjectStore.ts"
export * as MemoryMail from "./fakes/MemoryMail.ts"
export * as FakeWebhookTransport from "./fakes/FakeWebhookTransport.ts"
export * as Providers from "./Providers.ts"
export * as Scenario from "./Scenario.ts"
export { ScenarioStepFailed } from "./Scenario.ts"
export { yearOfBusiness, type YearOfBusinessOptions } from "./scenarios/YearOfBusiness.ts"
export type { TestProviders } from "./Providers.ts"
export type { NewAgent, NewCompany, NewUser, TestAgent, TestCompany, TestUser } from "./TestCompany.ts"
export {
  baseUrl,
  makeTestLedger,
  seedDefault,
  startDefault,
  type TestClientOptions,
  type TestClock,
  type TestLedger,
  type TestLedgerOptions
} from "./TestLedger.ts"
export * as Template from "./Template.ts"
