import { Effect, Layer } from "effect"
import { Mail, MailError, type OutgoingMessage } from "@ledger/engine/ports"

/**
 * The mail port's fake: an in-memory mailbox. Every message sent is kept in `sent`; `failNext`
 * scripts the next deliveries to fail (a transient outage, a bounce), for tests of retries and
 * suppression. A test ledger's `providers.mail` is one.
 */
export interface MemoryMail {
  readonly sent: Array<OutgoingMessage>
  readonly failNext: (error: { readonly message: string; readonly permanent?: boolean; readonly bounce?: boolean }) => void
  readonly service: Mail["Service"]
  /** The port, to provide wherever the workers run. */
  readonly layer: Layer.Layer<Mail>
}

export const make = (): MemoryMail => {
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
    failNext: (error) => {
      failures.push(new MailError({ message: error.message, permanent: error.permanent ?? false, bounce: error.bounce ?? false }))
    },
    service,
    layer: Layer.succeed(Mail)(service)
  }
}
