/**
 * `@ledger/server/adapters`: the real adapters of the engine's ports (`@ledger/engine/ports`), for
 * programs that embed the engine and wire some of its ports themselves, or wrap one: SMTP mail,
 * the master key, the receipts' blob stores and reader, inbound mail, webhooks over HTTP, the
 * information-returns filer, the crypto rails, the commerce, online-books and payment providers.
 * `Ports` is how `ledger serve` wires all of them from its settings (`Config`). Their fakes are in
 * @ledger/testkit.
 */

/** Every port a server provides, wired from its settings (the unconfigured layer where one is unset). */
export * as Ports from "./Ports.ts"

// Mail: sending over SMTP, receiving into the receipt inbox (parsing, and its own SMTP listener).
export * as SmtpMail from "./SmtpMail.ts"
export * as InboundMail from "../mail/InboundMail.ts"
export * as InboxListener from "../mail/InboxListener.ts"

// Secrets and files: the master key that seals them, the receipts' stores and reader.
export * as MasterKey from "./MasterKey.ts"
export * as ReceiptPorts from "./ReceiptPorts.ts"
export * as S3BlobStore from "./S3BlobStore.ts"
export * as HttpReceiptReader from "./HttpReceiptReader.ts"

// Outbound HTTP: webhooks (with their address checks), OAuth client documents, 1099 filing.
export * as HttpWebhookTransport from "./HttpWebhookTransport.ts"
export * as HttpClientDocuments from "./HttpClientDocuments.ts"
export * as InformationReturnsHttp from "./InformationReturnsHttp.ts"

// Providers: the bank-feed aggregator, crypto rails and prices, commerce, the online edition's books, card payments.
export * as AggregatorHttp from "./AggregatorHttp.ts"
export * as CryptoPorts from "./crypto/index.ts"
export * as CommerceHttp from "./CommerceHttp.ts"
export * as OnlineBooksHttp from "./OnlineBooksHttp.ts"
export * as PaymentProcessorHttp from "./PaymentProcessorHttp.ts"
