import { Effect, Layer } from "effect"
import { Mail, MailError, type OutgoingMessage } from "@ledger/engine"
import nodemailer from "nodemailer"

/**
 * The SMTP adapter of the mail port, over nodemailer. Configured from the environment:
 *
 *   LEDGER_SMTP_URL     smtp://user:pass@host:587 or smtps://user:pass@host:465 (wins when set)
 *   LEDGER_SMTP_HOST, LEDGER_SMTP_PORT (587), LEDGER_SMTP_USER, LEDGER_SMTP_PASS,
 *   LEDGER_SMTP_SECURE  "true" for implicit TLS (port 465); otherwise STARTTLS when offered
 *   LEDGER_MAIL_FROM    the sender address, e.g. billing@example.com (required)
 */
export interface SmtpConfig {
  readonly url?: string | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly user?: string | undefined
  readonly pass?: string | undefined
  readonly secure?: boolean | undefined
  readonly from: string
  /** Tests talk to a local server with a self-signed certificate or none. */
  readonly allowInsecureTls?: boolean | undefined
}

export const fromEnvironment = (environment: Record<string, string | undefined> = process.env): SmtpConfig | null => {
  const url = nonEmpty(environment.LEDGER_SMTP_URL)
  const host = nonEmpty(environment.LEDGER_SMTP_HOST)
  if (url === undefined && host === undefined) return null
  const from = nonEmpty(environment.LEDGER_MAIL_FROM)
  if (from === undefined) throw new Error("LEDGER_MAIL_FROM is required when SMTP is configured (the sender address).")
  const port = environment.LEDGER_SMTP_PORT === undefined ? undefined : Number(environment.LEDGER_SMTP_PORT)
  if (port !== undefined && (!Number.isInteger(port) || port <= 0 || port > 65_535)) {
    throw new Error(`LEDGER_SMTP_PORT must be a port number, got ${environment.LEDGER_SMTP_PORT}`)
  }
  return {
    url,
    host,
    port,
    user: nonEmpty(environment.LEDGER_SMTP_USER),
    pass: nonEmpty(environment.LEDGER_SMTP_PASS),
    secure: environment.LEDGER_SMTP_SECURE === "true",
    from
  }
}

const nonEmpty = (value: string | undefined) => value === undefined || value.trim() === "" ? undefined : value

/**
 * SMTP replies say whether to try again: 4xx is temporary, 5xx is final, and the 55x family
 * (mailbox unavailable, does not exist, not permitted) is a bounce that suppresses the address.
 */
export const classify = (error: unknown): MailError => {
  const failure = error as { responseCode?: number; code?: string; message?: string; response?: string }
  const code = failure.responseCode
  const message = `${failure.message ?? String(error)}`.slice(0, 1000)
  if (code !== undefined && code >= 500) {
    return new MailError({ message, permanent: true, bounce: code === 550 || code === 551 || code === 553 })
  }
  return new MailError({ message, permanent: false, bounce: false })
}

export const make = (config: SmtpConfig) => {
  const tls = config.allowInsecureTls === true ? { tls: { rejectUnauthorized: false } } : {}
  const transporter = config.url !== undefined
    ? nodemailer.createTransport({ url: config.url, ...tls })
    : nodemailer.createTransport({
      host: config.host,
      port: config.port ?? 587,
      secure: config.secure ?? false,
      ...(config.user === undefined ? {} : { auth: { user: config.user, pass: config.pass ?? "" } }),
      ...tls
    })
  const send = (message: OutgoingMessage) =>
    Effect.tryPromise({
      try: () =>
        transporter.sendMail({
          from: message.from.name === null ? config.from : { name: message.from.name, address: message.from.address ?? config.from },
          ...(message.replyTo === null ? {} : { replyTo: message.replyTo }),
          to: message.to.name === null ? message.to.address : { name: message.to.name, address: message.to.address },
          ...(message.cc.length === 0 ? {} : { cc: [...message.cc] }),
          subject: message.subject,
          text: message.text,
          headers: { ...message.headers },
          attachments: message.attachments.map((attachment) => ({
            filename: attachment.filename,
            contentType: attachment.contentType,
            content: Buffer.from(attachment.content)
          }))
        }),
      catch: classify
    }).pipe(Effect.map((info) => ({ messageId: String(info.messageId) })))
  return { service: Mail.of({ send }), close: () => transporter.close() }
}

export const layer = (config: SmtpConfig) =>
  Layer.effect(Mail)(Effect.acquireRelease(
    Effect.sync(() => make(config)),
    (mail) => Effect.sync(() => mail.close())
  ).pipe(Effect.map((mail) => mail.service)))
