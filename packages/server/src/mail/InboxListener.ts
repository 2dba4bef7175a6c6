import { existsSync, readFileSync } from "node:fs"
import { Effect, Layer } from "effect"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"
import { Receipts as ReceiptsApi } from "@ledger/api"
import { Receipts } from "@ledger/engine"
import * as InboundMail from "../adapters/InboundMail.ts"

/**
 * The receipt inbox's own SMTP listener (DECISIONS.md "Receipt inbox"; ADR 1206): `ledger serve`
 * starts it when `LEDGER_INBOUND_SMTP_PORT` is set. It is a receiving MX for the inbox domain
 * only, never a relay: a recipient is accepted at RCPT only when it is a live inbox address
 * (private `r-<token>`, custom name, or a name still forwarding); anything else is 550, a rotated
 * address too (and that refusal is listed on the inbox). There is no AUTH. A message is bounded by
 * the inbox's own limit (SIZE, checked again while it streams), recipients by 20 per message,
 * connections by `maxClients`. The whole message is parsed with mailparser and handed to the
 * engine (InboundMail.ts), exactly as the tests' listener does. STARTTLS is offered when a key
 * and a certificate are configured. Sender authentication is read from the Authentication-Results
 * of the front server named by `LEDGER_INBOUND_AUTHSERV_ID` (ADR 1206 on that trust boundary).
 */

const limits = ReceiptsApi.Shared.limits
/** Recipients per message (the engine reads at most as many). */
export const recipientsMax = 20
/** Connections at once: each may hold a message of up to `messageBytesMax` in memory. */
export const clientsMax = 16

export interface Settings {
  readonly host: string
  /** 0 picks a free port (tests); `ledger serve` requires one in 1-65535. */
  readonly port: number
  /** The inbox domain: the name in the greeting, and the only domain mail is accepted for. */
  readonly domain: string
  /** The authserv-id whose Authentication-Results are believed; null: none is, every sender is unauthenticated. */
  readonly trustedAuthservId: string | null
  /** PEM files for STARTTLS; null: STARTTLS is not offered. */
  readonly tls: { readonly keyFile: string; readonly certFile: string } | null
  /** How long closing waits for sessions before ending them (`ledger serve`'s stop bound); absent: smtp-server's 30 s. */
  readonly closeTimeoutMs?: number
}

export class ListenerSettingsError extends Error {}

/**
 * The listener's settings from the environment: null (no listener) unless
 * `LEDGER_INBOUND_SMTP_PORT` is set. `LEDGER_INBOUND_SMTP_HOST` (default `host`, the HTTP host),
 * `LEDGER_INBOX_DOMAIN`, `LEDGER_INBOUND_AUTHSERV_ID`, and `LEDGER_INBOUND_SMTP_TLS_KEY` with
 * `LEDGER_INBOUND_SMTP_TLS_CERT` (files). A malformed setting is refused before anything starts.
 */
export const fromEnvironment = (environment: Readonly<Record<string, string | undefined>>, host: string): Settings | null => {
  const text = environment.LEDGER_INBOUND_SMTP_PORT ?? ""
  if (text === "") return null
  const port = Number(text)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new ListenerSettingsError(`LEDGER_INBOUND_SMTP_PORT must be a port number, got ${text}`)
  const keyFile = environment.LEDGER_INBOUND_SMTP_TLS_KEY ?? ""
  const certFile = environment.LEDGER_INBOUND_SMTP_TLS_CERT ?? ""
  if ((keyFile === "") !== (certFile === "")) {
    throw new ListenerSettingsError("LEDGER_INBOUND_SMTP_TLS_KEY and LEDGER_INBOUND_SMTP_TLS_CERT go together (PEM files for STARTTLS)")
  }
  for (const file of [keyFile, certFile]) if (file !== "" && !existsSync(file)) throw new ListenerSettingsError(`No such file for STARTTLS: ${file}`)
  const authserv = (environment.LEDGER_INBOUND_AUTHSERV_ID ?? "").trim()
  if (authserv !== "" && !/^[A-Za-z0-9.-]{1,253}$/u.test(authserv)) throw new ListenerSettingsError(`LEDGER_INBOUND_AUTHSERV_ID must be a host name, got ${authserv}`)
  return {
    host: environment.LEDGER_INBOUND_SMTP_HOST || host,
    port,
    domain: (environment.LEDGER_INBOX_DOMAIN || "inbox.localhost").toLowerCase(),
    trustedAuthservId: authserv === "" ? null : authserv,
    tls: keyFile === "" ? null : { keyFile, certFile }
  }
}

/** Runs the engine's inbound-mail effects (the server's context, or a test app's runtime). */
export type Runner = <A>(effect: Effect.Effect<A, never, Receipts.Intake.Needs>) => Promise<A>

export interface Running {
  readonly port: number
  readonly close: () => Promise<void>
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code })

/** Starts the listener; resolves once it is bound. */
export const start = async (settings: Settings, run: Runner): Promise<Running> => {
  const options: SMTPServerOptions = {
    name: settings.domain,
    banner: "Ledger receipt inbox",
    size: limits.messageBytesMax,
    authOptional: true,
    // A receiving MX: nobody logs in, and nothing is relayed.
    disabledCommands: settings.tls === null ? ["AUTH", "STARTTLS"] : ["AUTH"],
    ...(settings.tls === null ? {} : { key: readFileSync(settings.tls.keyFile), cert: readFileSync(settings.tls.certFile) }),
    // No DNS from the listener: who the sender is comes from the front server's authentication results.
    disableReverseLookup: true,
    maxClients: clientsMax,
    // Bounded so that a stop is never held by a client that keeps its session open.
    ...(settings.closeTimeoutMs === undefined ? {} : { closeTimeout: Math.max(1, settings.closeTimeoutMs) }),
    logger: false,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= recipientsMax) return callback(smtpError(452, "4.5.3 Too many recipients"))
      const sender = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address
      run(Receipts.Intake.screen(address.address, sender)).then(
        (verdict) => verdict === "accepted"
          ? callback()
          : callback(smtpError(550, verdict === "refused" ? "5.1.1 This address was rotated and no longer receives mail" : "5.1.1 No such mailbox here")),
        () => callback(smtpError(451, "4.3.0 Temporary failure, try again later"))
      )
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      let size = 0
      stream.on("data", (chunk: Buffer) => {
        size += chunk.byteLength
        // Past the limit the rest is read and dropped (the client is answered 552 at the end).
        if (size <= limits.messageBytesMax) chunks.push(chunk)
      })
      stream.on("end", () => {
        if (stream.sizeExceeded || size > limits.messageBytesMax) return callback(smtpError(552, "5.3.4 Message too big"))
        const envelope = {
          mailFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          recipients: session.envelope.rcptTo.map((to) => to.address)
        }
        InboundMail.parse(Buffer.concat(chunks), envelope, { trustedAuthservId: settings.trustedAuthservId })
          .then((message) => run(Receipts.Intake.receive(message)))
          .then((deliveries) => {
            const reply = InboundMail.smtpReply(deliveries)
            if (reply.code === 250) callback(null, reply.message)
            else callback(smtpError(reply.code, reply.message))
          }, () => callback(smtpError(451, "4.3.0 Temporary failure, try again later")))
      })
    }
  }
  const server = new SMTPServer(options)
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject)
    server.listen(settings.port, settings.host, () => {
      server.server.off("error", reject)
      resolve()
    })
  })
  // A socket error after start (a client resetting) is the client's, not the server's.
  server.on("error", () => undefined)
  const address = server.server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : settings.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The listener for as long as the layer lives, over the server's engine and ports. */
export const layer = (settings: Settings): Layer.Layer<never, Error, Receipts.Intake.Needs> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const context = yield* Effect.context<Receipts.Intake.Needs>()
    const running = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => start(settings, Effect.runPromiseWith(context)),
        catch: (error) => new Error(`The receipt inbox's SMTP listener cannot start on ${settings.host}:${settings.port}: ${String(error)}`)
      }),
      (listener) => Effect.promise(listener.close)
    )
    yield* Effect.logInfo(`Receipt inbox listening on smtp://${settings.host}:${running.port} for @${settings.domain}`)
  }))
