import { createHash } from "node:crypto"
import { Layer } from "effect"
import { type All, BlobStore, InboxSettings, TokenSealer } from "@ledger/engine/ports"
import * as FakeAggregator from "./fakes/FakeAggregator.ts"
import * as FakeCommerce from "./fakes/FakeCommerce.ts"
import * as FakeChain from "./fakes/FakeChain.ts"
import * as FakeOnlineBooks from "./fakes/FakeOnlineBooks.ts"
import * as FakePaymentProcessor from "./fakes/FakePaymentProcessor.ts"
import * as FakeInformationReturns from "./fakes/FakeInformationReturns.ts"
import * as FakeReceiptReader from "./fakes/FakeReceiptReader.ts"
import * as MemoryMail from "./fakes/MemoryMail.ts"
import * as FakeWebhookTransport from "./fakes/FakeWebhookTransport.ts"

/**
 * The outside world of a test ledger: every provider Ledger talks to is a fake a test can script
 * and inspect, so nothing leaves the process and every run behaves the same.
 *
 * - `aggregator`: the bank-feed aggregator. Connect an institution, add, change, post and remove
 *   transactions, require a login, make the next call fail.
 * - `mail`: the mailbox emails are delivered to (by `ledger.runJobs()`): `sent` holds them;
 *   `failNext` scripts a failed delivery.
 *
 * Access tokens are sealed with a master key derived from the seed, so sealed values repeat too.
 */
export interface TestProviders {
  readonly aggregator: FakeAggregator.FakeAggregator
  readonly mail: MemoryMail.MemoryMail
  /** The crypto rails: pay an address, confirm, mine (`chain`); set prices (`prices`). */
  readonly chain: FakeChain.FakeChain
  readonly prices: FakeChain.FakePrices
  /** The 1099 filing provider: files received, IRS answers and TIN matches to script. */
  readonly informationReturns: FakeInformationReturns.FakeInformationReturns
  /** The receipt reader (OCR provider): script its fields with `answer`. */
  readonly receiptReader: FakeReceiptReader.FakeReceiptReader
  /** Webhook deliveries: `sent` holds every request, `answerNext` scripts the receiver. */
  readonly webhooks: FakeWebhookTransport.FakeWebhookTransport
  /** Sales integrations: a payment processor and a storefront (consent, charges, orders). */
  readonly commerce: FakeCommerce.FakeCommerce
  /** The online edition to migrate from: fill `company` or `generateYear`, then consent. */
  readonly onlineBooks: FakeOnlineBooks.FakeOnlineBooks
  /** The card processor (online payments, billing) on loopback HTTP: pay, refund, dispute, pay out, check out; its signed events. */
  readonly payments: FakePaymentProcessor.FakePaymentProcessor
  /** Every port, as one layer for the engine and its workers. */
  readonly layer: Layer.Layer<All>
}

/** 32 bytes from the seed: a master key that is the same on every run and never a real one. */
export const masterKeyOf = (seed: number): Uint8Array =>
  new Uint8Array(createHash("sha256").update(`ledger-testkit-master-key:${seed}`).digest())

export const make = (seed: number): TestProviders => {
  const aggregator = FakeAggregator.make()
  const mail = MemoryMail.make()
  const chain = FakeChain.make()
  const prices = FakeChain.makePrices()
  const informationReturns = FakeInformationReturns.make()
  const receiptReader = FakeReceiptReader.make()
  const webhooks = FakeWebhookTransport.make()
  const commerce = FakeCommerce.make()
  const onlineBooks = FakeOnlineBooks.make()
  const payments = FakePaymentProcessor.make()
  return {
    aggregator,
    mail,
    chain,
    prices,
    informationReturns,
    receiptReader,
    webhooks,
    commerce,
    onlineBooks,
    payments,
    layer: Layer.mergeAll(payments.layer, commerce.layer, onlineBooks.layer, webhooks.layer, aggregator.layer, mail.layer, chain.layer, prices.layer, informationReturns.layer, TokenSealer.layerFromKey(masterKeyOf(seed)),
      receiptReader.layer, BlobStore.layerDatabase(masterKeyOf(seed)), InboxSettings.layerDefault)
  }
}
