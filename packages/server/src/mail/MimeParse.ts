import { simpleParser } from "mailparser"
import type { Receipts } from "@ledger/engine"
import { job, ownBuffer } from "@ledger/engine/jobs"
import { InboxRules } from "@ledger/engine/rules"

/**
 * A raw MIME message parsed with `mailparser` into what the engine receives (InboundMail.ts): a
 * pure function of bytes, so it runs as a job in the server's worker threads (ADR 2320): a 25 MB
 * message no longer holds the event loop for seconds. This file imports only the engine's rules
 * and jobs, so a worker loads these, not the whole engine.
 */

export interface Envelope {
  readonly mailFrom: string
  readonly recipients: ReadonlyArray<string>
}

/** Parses one message into what the engine receives. */
export const parse = async (raw: Uint8Array | string, envelope: Envelope, options: { readonly trustedAuthservId: string | null }): Promise<Receipts.Intake.InboundMessage> => {
  // A view, not a copy: the raw bytes are this job's alone (moved from the request thread).
  const source = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const mail = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024 })
  const authentication = InboxRules.parseAuthenticationResults(
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

export interface ParseInput {
  readonly raw: Uint8Array | string
  readonly envelope: Envelope
  readonly trustedAuthservId: string | null
}

/** The raw message is moved to the worker, not copied: the listener never reads it again (InboxListener.ts). */
export const parseMail = job("mail.parse", (input: ParseInput) => parse(input.raw, input.envelope, { trustedAuthservId: input.trustedAuthservId }), {
  transfer: (input) => ownBuffer(input.raw)
})
