import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"
import * as AggregatorHttp from "./AggregatorHttp.ts"
import * as InformationReturnsHttp from "./InformationReturnsHttp.ts"
import * as CryptoPorts from "./crypto/index.ts"
import * as CommerceHttp from "./CommerceHttp.ts"
import * as OnlineBooksHttp from "./OnlineBooksHttp.ts"
import * as PaymentProcessorHttp from "./PaymentProcessorHttp.ts"
import * as HttpWebhookTransport from "./HttpWebhookTransport.ts"
import * as MasterKey from "./MasterKey.ts"
import * as ReceiptPorts from "./ReceiptPorts.ts"
import * as SmtpMail from "./SmtpMail.ts"

/**
 * The ports a server wires from its settings (engine/src/ports/Ports.ts): SMTP mail when it is
 * configured, the token sealer over the master key, the bank-feed aggregator's HTTP adapter when
 * LEDGER_AGGREGATOR_URL names one (or the layer an embedder or test passes), and each outside
 * provider's HTTP adapter from its URL. Every port left out gets its unconfigured layer: bank
 * feeds then answer 503 `bank_feeds_not_configured`, and emails wait in their jobs for SMTP.
 */
export interface Settings extends MasterKey.Options {
  /** SMTP, from `SmtpMail.fromEnvironment`; null: none configured. */
  readonly smtp?: SmtpMail.SmtpConfig | null | undefined
  readonly aggregator?: Layer.Layer<Ports.Aggregator> | undefined
  /** The web app's address, the WebAuthn relying party (LEDGER_APP_URL, default the base URL); none: passkeys answer 503. */
  readonly appUrl?: string | undefined
  /** The crypto rails: a chain watcher and a price source (default from LEDGER_ESPLORA_URL, LEDGER_CRYPTO_PRICES_URL). */
  readonly crypto?: CryptoPorts.Options | undefined
}

export interface Wired {
  /** Every port, for the engine and its workers. */
  readonly layer: Layer.Layer<Ports.All, MasterKey.MasterKeyError>
  /** What this deployment has not configured, each with what configures it (for the start line). */
  readonly unconfigured: ReadonlyArray<string>
}

export const wire = (settings: Settings): Wired => {
  const unconfigured: Array<string> = []
  const smtp = settings.smtp ?? null
  if (smtp === null) unconfigured.push("mail (LEDGER_SMTP_URL or LEDGER_SMTP_HOST, with LEDGER_MAIL_FROM)")
  // With PostgreSQL every replica must seal with the same key, so none is generated: it must be given.
  const keyless = (settings.masterKey ?? "") === "" && settings.databaseUrl !== undefined
  if (keyless) unconfigured.push("master key (LEDGER_MASTER_KEY)")
  const aggregator = settings.aggregator ?? AggregatorHttp.fromEnvironment(process.env)
  if (aggregator === null) unconfigured.push("bank feeds (LEDGER_AGGREGATOR_URL, LEDGER_AGGREGATOR_CLIENT_ID, LEDGER_AGGREGATOR_SECRET)")
  const receipts = ReceiptPorts.wire(settings, keyless)
  const filing = InformationReturnsHttp.fromEnvironment(process.env)
  if (filing === null) unconfigured.push("1099 filing and TIN matching (LEDGER_TAX_FILING_URL)")
  unconfigured.push(...receipts.unconfigured)
  const crypto = CryptoPorts.wire(settings.crypto)
  const commerce = CommerceHttp.fromEnvironment(process.env)
  if (commerce === null) unconfigured.push("sales integrations (LEDGER_PROVIDER_A_URL, LEDGER_PROVIDER_B_URL)")
  const onlineBooks = OnlineBooksHttp.fromEnvironment(process.env)
  if (onlineBooks === null) unconfigured.push("online-edition migration (LEDGER_ONLINE_BOOKS_URL)")
  const payments = PaymentProcessorHttp.fromEnvironment(process.env)
  if (payments === null) unconfigured.push("online payments and billing (LEDGER_PAYMENTS_URL)")
  unconfigured.push(...crypto.unconfigured)
  return {
    layer: Layer.mergeAll(
      smtp === null ? Ports.Mail.layerUnconfigured : SmtpMail.layer(smtp),
      keyless ? Ports.TokenSealer.layerUnconfigured : sealer(settings),
      aggregator ?? Ports.Aggregator.layerUnconfigured,
      settings.appUrl === undefined ? Layer.empty : Ports.RelyingParty.layer(settings.appUrl),
      receipts.layer,
      crypto.layer,
      filing ?? Ports.InformationReturns.layerUnconfigured,
      HttpWebhookTransport.fromEnvironment(process.env),
      commerce ?? Ports.CommerceProviders.layerUnconfigured,
      onlineBooks ?? Ports.OnlineBooks.layerUnconfigured,
      payments ?? Ports.PaymentProcessor.layerUnconfigured
    ),
    unconfigured
  }
}

/**
 * The sealer over the master key, loaded (or, embedded, generated into the data folder) when the
 * layer is built: after storage, so the key file never lands in a folder PGlite has yet to fill.
 */
const sealer = (options: MasterKey.Options): Layer.Layer<Ports.TokenSealer, MasterKey.MasterKeyError> =>
  Layer.unwrap(Effect.try({
    try: () => Ports.TokenSealer.layerFromKey(MasterKey.load(options).key),
    catch: (error) => error instanceof MasterKey.MasterKeyError ? error : new MasterKey.MasterKeyError(String(error))
  }))
