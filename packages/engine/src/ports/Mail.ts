import { Context, Effect, Layer, Schema } from "effect"

/**
 * The mail port: how the outbox's emails leave (the workers deliver them; Worker.ts requires it).
 * The server provides the SMTP adapter (packages/server/src/adapters/SmtpMail.ts) or, with no SMTP
 * configured, `Mail.layerUnconfigured`; tests use the testkit's `MemoryMail`, which keeps what was sent.
 */
export interface Attachment {
  readonly filename: string
  readonly contentType: string
  readonly content: Uint8Array
}

export interface OutgoingMessage {
  readonly from: { readonly name: string | null; readonly address: string | null }
  readonly replyTo: string | null
  readonly to: { readonly name: string | null; readonly address: string }
  readonly cc: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly attachments: ReadonlyArray<Attachment>
  /** Lets a receiving system and our logs tie the message to its outbox row. */
  readonly headers: Readonly<Record<string, string>>
}

/**
 * A delivery that did not happen. `permanent` failures (the address does not exist, the message
 * was refused for good) are not retried, and a `bounce` puts the address on the suppression list.
 */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String,
  permanent: Schema.Boolean,
  bounce: Schema.Boolean
}) {}

export class Mail extends Context.Service<Mail, {
  readonly send: (message: OutgoingMessage) => Effect.Effect<{ readonly messageId: string }, MailError>
}>()("@ledger/engine/Mail") {
  /**
   * No way out configured: every delivery fails as transient and waits (its job retries), so
   * nothing is lost or marked sent; the message names what to configure.
   */
  static readonly layerUnconfigured = Layer.succeed(Mail)(Mail.of({
    send: () => Effect.fail(new MailError({ message: "No mail delivery is configured (LEDGER_SMTP_URL).", permanent: false, bounce: false }))
  }))
}
