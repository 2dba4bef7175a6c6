import { Context, Effect, Layer, Schema } from "effect"

/**
 * The mail port: how the outbox's emails leave. The server provides the SMTP adapter
 * (packages/server/src/mail); tests and the testkit use `Mail.memory()`, which keeps what was sent.
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
   * An in-memory mailbox: every message sent is kept in `sent`; `failNext` scripts the next
   * deliveries to fail (a transient outage, a bounce), for tests of retries and suppression.
   */
  static memory() {
    const sent: Array<OutgoingMessage> = []
    const failures: Array<MailError> = []
    let counter = 0
    const service = Mail.of({
      send: (message) =>
        Effect.suspend(() => {
          const failure = failures.shift()
          if (failure !== undefined) return Effect.fail(failure)
          sent.push(message)
          counter += 1
          return Effect.succeed({ messageId: `<memory-${counter}@ledger.invalid>` })
        })
    })
    return {
      sent,
      failNext: (error: { readonly message: string; readonly permanent?: boolean; readonly bounce?: boolean }) => {
        failures.push(new MailError({ message: error.message, permanent: error.permanent ?? false, bounce: error.bounce ?? false }))
      },
      service,
      layer: Layer.succeed(Mail)(service)
    }
  }

  /** No way out configured: every delivery waits (transient), so nothing is lost or marked sent. */
  static readonly layerUnconfigured = Layer.succeed(Mail)(Mail.of({
    send: () => Effect.fail(new MailError({ message: "No mail delivery is configured (LEDGER_SMTP_URL).", permanent: false, bounce: false }))
  }))
}
