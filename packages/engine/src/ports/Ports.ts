import { Layer } from "effect"
import { Aggregator } from "./Aggregator.ts"
import { ChainWatcher, CryptoPrices } from "./CryptoRails.ts"
import { InformationReturns } from "./InformationReturns.ts"
import { CommerceProviders } from "./CommerceProviders.ts"
import { OnlineBooks } from "./OnlineBooks.ts"
import { BlobStore } from "./BlobStore.ts"
import { InboxSettings, ReceiptReader } from "./ReceiptReader.ts"
import { Mail } from "./Mail.ts"
import { TokenSealer } from "./TokenSealer.ts"
import { WebhookTransport } from "./WebhookTransport.ts"
import { PaymentProcessor } from "./PaymentProcessor.ts"

/**
 * Every outside dependency is a port: a `Context.Service` the engine (or its workers) requires and
 * a deployment provides, with a real adapter in @ledger/server, a fake in @ledger/testkit, and an
 * explicit unconfigured layer for a deployment that has none (its operations answer a 503 whose
 * type says what to configure). Randomness (`Entropy`) and time (Effect's `Clock`) are ports too,
 * but the engine layer provides them itself: every deployment has them.
 */

/** The ports the engine's handlers use: `Ledger.layer` requires them, so its type names them. */
export type Engine = Aggregator | TokenSealer | InformationReturns | WebhookTransport | BlobStore | ReceiptReader | InboxSettings | CommerceProviders | OnlineBooks | ChainWatcher | CryptoPrices | PaymentProcessor

/** Every port a server provides: the engine's, and the mail its workers deliver with. */
export type All = Engine | Mail

/** Nothing configured: bank feeds answer 503 `bank_feeds_not_configured`, emails wait for SMTP. */
export const layerUnconfigured: Layer.Layer<All> = Layer.mergeAll(
  Aggregator.layerUnconfigured,
  ChainWatcher.layerUnconfigured,
  CryptoPrices.layerUnconfigured,
  InformationReturns.layerUnconfigured,
  BlobStore.layerUnconfigured,
  ReceiptReader.layerUnconfigured,
  InboxSettings.layerDefault,
  TokenSealer.layerUnconfigured,
  Mail.layerUnconfigured,
  WebhookTransport.layerUnconfigured,
  CommerceProviders.layerUnconfigured,
  OnlineBooks.layerUnconfigured,
  PaymentProcessor.layerUnconfigured
)
