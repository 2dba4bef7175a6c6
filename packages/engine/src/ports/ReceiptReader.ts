import { Context, Data, Effect, Layer } from "effect"

/**
 * The receipt extraction provider (OCR and field extraction), as a port: given a receipt's file
 * (and the text Ledger read from it, if any) it answers the fields it found. A deployment
 * configures one with `LEDGER_RECEIPT_READER_URL` (server/adapters/HttpReceiptReader.ts); without
 * one, receipts are still read by Ledger's own rules from a PDF's text, and images say
 * `not_configured`. The testkit's fake answers scripted fields.
 */

export interface ReaderInput {
  readonly mediaType: string
  readonly bytes: Uint8Array
  readonly text: string | null
}

export interface ReaderFields {
  readonly vendor?: string | null | undefined
  readonly date?: string | null | undefined
  readonly total_cents?: number | null | undefined
  readonly tax_cents?: number | null | undefined
  readonly subtotal_cents?: number | null | undefined
  readonly payment_method?: "cash" | "card" | "other" | null | undefined
}

export class ReaderFailure extends Data.TaggedError("ReaderFailure")<{ readonly message: string }> {}

export class ReceiptReader extends Context.Service<ReceiptReader, {
  readonly configured: boolean
  /** The provider's name, shown as `extraction.by`. */
  readonly name: string
  readonly read: (input: ReaderInput) => Effect.Effect<ReaderFields, ReaderFailure>
}>()("@ledger/engine/ReceiptReader") {
  static readonly layerUnconfigured: Layer.Layer<ReceiptReader> = Layer.succeed(ReceiptReader)(ReceiptReader.of({
    configured: false,
    name: "none",
    read: () => Effect.fail(new ReaderFailure({ message: "No receipt reader is configured (LEDGER_RECEIPT_READER_URL)." }))
  }))
}

/**
 * Where the receipt inbox receives mail (DECISIONS.md "Receipt inbox"): the domain of its
 * addresses and whether the server listens for SMTP. The engine never reads the environment; the
 * server provides this from `LEDGER_INBOX_DOMAIN` and `LEDGER_INBOUND_SMTP_PORT`.
 */
export class InboxSettings extends Context.Service<InboxSettings, {
  readonly domain: string
  readonly smtpPort: number | null
}>()("@ledger/engine/InboxSettings") {
  static readonly layerDefault: Layer.Layer<InboxSettings> = Layer.succeed(InboxSettings)(
    InboxSettings.of({ domain: "inbox.localhost", smtpPort: null })
  )
  static readonly layer = (settings: { readonly domain: string; readonly smtpPort: number | null }): Layer.Layer<InboxSettings> =>
    Layer.succeed(InboxSettings)(InboxSettings.of(settings))
}
