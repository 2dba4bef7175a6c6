import { Clock, Effect, type ManagedRuntime } from "effect"
import { simpleParser } from "mailparser"
import { Receipts } from "@ledger/engine"

/**
 * The receipt inbox's mail adapter: a raw MIME message (as an SMTP listener receives it) parsed
 * with `mailparser` and handed to the engine (`Receipts.Intake.receive`) with its envelope.
 * Sender authentication is read from `Authentication-Results` headers written by the verifier
 * the deployment trusts (`LEDGER_INBOUND_AUTHSERV_ID`, e.g. the MTA in front running SPF, DKIM
 * and DMARC checks); without one every message counts as unauthenticated and waits in review.
 * ADR 1203.
 */

export interface Envelope {
  readonly mailFrom: string
  readonly recipients: ReadonlyArray<string>
}

export interface Options {
  /** The authserv-id whose Authentication-Results are believed; null: none is. */
  readonly trustedAuthservId: string | null
  /** The clock the engine reads; a server's is the system clock (tests pass the app's manual clock). */
  readonly clock?: Clock.Clock | undefined
}

/** Parses one message into what the engine receives. */
export const parse = async (raw: Uint8Array | string, envelope: Envelope, options: Options): Promise<Receipts.Intake.InboundMessage> => {
  const source = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw)
  const mail = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024 })
  const authentication = Receipts.InboxRules.parseAuthenticationResults(
    mail.headerLines.filter((line) => line.key === "authentication-results").map((line) => line.line.replace(/^[^:]*:\s*/u, "")),
    options.trustedAuthservId
  )
  const from = mail.from?.value[0]?.address ?? envelope.mailFrom
  return {
    recipients: envelope.recipients,
    from,
    subject: mail.subject ?? null,
    messageId: mail.messageId ?? null,
    authentication,
    sizeBytes: source.byteLength,
    html: typeof mail.html === "string" ? mail.html : null,
    attachments: mail.attachments
      .filter((attachment) => attachment.contentDisposition !== "inline" || attachment.filename !== undefined)
      .map((attachment) => ({ fileName: attachment.filename ?? "attachment", bytes: new Uint8Array(attachment.content) }))
  }
}

/** Parses and receives one message through an app's runtime; answers what became of each recipient. */
export const receive = async (
  runtime: ManagedRuntime.ManagedRuntime<any, any>,
  raw: Uint8Array | string,
  envelope: Envelope,
  options: Options
): Promise<ReadonlyArray<Receipts.Intake.Delivery>> => {
  const message = await parse(raw, envelope, options)
  const received = Receipts.Intake.receive(message) as Effect.Effect<ReadonlyArray<Receipts.Intake.Delivery>, never, any>
  return runtime.runPromise(options.clock === undefined ? received : Effect.provideService(received, Clock.Clock, options.clock))
}

/** An SMTP reply for a delivery: 250 accepted, 550 for an unknown or rotated address. */
export const smtpReply = (deliveries: ReadonlyArray<Receipts.Intake.Delivery>): { readonly code: number; readonly message: string } => {
  const refused = deliveries.find((delivery) => delivery.outcome !== "accepted")
  if (refused !== undefined && deliveries.every((delivery) => delivery.outcome !== "accepted")) {
    return { code: 550, message: refused.outcome === "refused" ? "5.1.1 This address was rotated and no longer receives mail" : "5.1.1 No such mailbox" }
  }
  return { code: 250, message: "2.0.0 Received" }
}

