import { existsSync, readFileSync } from "node:fs"
import { Effect, Layer } from "effect"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"
import { Receipts as ReceiptsApi } from "@ledger/api"
import { Receipts } from "@ledger/engine"
import * as InboundMail from "./InboundMail.ts"

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

/**
 * The listener's own limits, as a mail server keeps them (issue 41 item 2): mail past any of them
 * is deferred with a 4xx reply, so the sender's server retries later, and none of it is parsed.
 * They are per listener process; the daily quota per company is the engine's, in the database.
 */
export interface Limits {
  /** Messages one client network address may start in a minute (at MAIL FROM: 450 4.7.1). */
  readonly messagesPerClientPerMinute: number
  /** Messages one inbox address may take in a minute (at RCPT TO: 450 4.2.1). */
  readonly messagesPerInboxPerMinute: number
  /**
   * Bytes of messages being received or parsed at once. A message declared (SIZE) or found past
   * what is left is deferred (452 4.3.1 at MAIL FROM, 451 4.3.1 after DATA), never parsed.
   */
  readonly processingBytesMax: number
}

export const defaultLimits: Limits = {
  messagesPerClientPerMinute: 60,
  messagesPerInboxPerMinute: 30,
  processingBytesMax: 64 * 1024 * 1024
}

/** Addresses and inboxes remembered at once by the rate windows: past it the oldest are forgotten. */
const windowKeysMax = 10_000
const minute_ms = 60_000

/** A one-minute sliding window of starts per key, bounded in keys; `take` answers whether one more fits. */
export const rateWindow = (perMinute: number, now: () => number = Date.now) => {
  const starts = new Map<string, Array<number>>()
  return {
    take: (key: string): boolean => {
      const at = now()
      const recent = (starts.get(key) ?? []).filter((time) => at - time < minute_ms)
      if (recent.length >= perMinute) {
        starts.set(key, recent)
        return false
      }
      recent.push(at)
      starts.delete(key)
      starts.set(key, recent)
      if (starts.size > windowKeysMax) starts.delete(starts.keys().next().value!)
      return true
    }
  }
}

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
  /** The listener's rate and memory limits; absent: `defaultLimits`. */
  readonly limits?: Partial<Limits>
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

/** Bytes of messages being received or parsed now, across every session of one listener. */
interface Budget {
  bytes: number
}

/** MAIL FROM and RCPT TO: the rates, the declared size against the budget, and the engine's verdict on each recipient. */
const admission = (bounds: Limits, budget: Budget, run: Runner): Required<Pick<SMTPServerOptions, "onMailFrom" | "onRcptTo">> => {
  const perClient = rateWindow(bounds.messagesPerClientPerMinute)
  const perInbox = rateWindow(bounds.messagesPerInboxPerMinute)
  return {
    onMailFrom(address, session, callback) {
      if (!perClient.take(session.remoteAddress)) return callback(smtpError(450, "4.7.1 Too much mail from your address: try again later"))
      // A declared size that does not fit beside the messages being processed waits for later.
      const size = address.args === false ? undefined : address.args.SIZE
      const declared = typeof size === "string" ? Number(size) : 0
      if (Number.isFinite(declared) && declared > 0 && declared <= limits.messageBytesMax && budget.bytes + declared > bounds.processingBytesMax) {
        return callback(smtpError(452, "4.3.1 Insufficient system storage: try again later"))
      }
      callback()
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= recipientsMax) return callback(smtpError(452, "4.5.3 Too many recipients"))
      const sender = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address
      run(Receipts.Intake.screen(address.address, sender)).then(
        (verdict) => {
          if (verdict === "over_quota") return callback(smtpError(452, "4.2.2 This inbox has taken its messages for today: try again later"))
          if (verdict === "storage_unavailable") return callback(smtpError(451, "4.3.2 Receipt storage is not configured here yet: try again later"))
          if (verdict !== "accepted") {
            return callback(smtpError(550, verdict === "refused" ? "5.1.1 This address was rotated and no longer receives mail" : "5.1.1 No such mailbox here"))
          }
          // Counted once the address is known to be an inbox: unknown addresses cannot use up a real one's rate.
          if (!perInbox.take(address.address.toLowerCase())) return callback(smtpError(450, "4.2.1 This inbox is receiving too much mail: try again later"))
          callback()
        },
        () => callback(smtpError(451, "4.3.0 Temporary failure, try again later"))
      )
    }
  }
}

/** DATA: the message read within its size and the budget, parsed, and handed to the engine. */
const receiver = (settings: Settings, bounds: Limits, budget: Budget, run: Runner): NonNullable<SMTPServerOptions["onData"]> =>
  (stream, session, callback) => {
    const chunks: Array<Buffer> = []
    let size = 0
    // Bytes this message holds in the budget, given back once it is answered.
    let held = 0
    let deferred = false
    const release = () => {
      budget.bytes -= held
      held = 0
    }
    stream.on("data", (chunk: Buffer) => {
      size += chunk.byteLength
      // Past the size limit the rest is read and dropped (the client is answered 552 at the end).
      if (deferred || size > limits.messageBytesMax) return
      if (budget.bytes + chunk.byteLength > bounds.processingBytesMax) {
        // No room beside the messages being processed: drop what was kept, read the rest away, defer.
        deferred = true
        chunks.length = 0
        release()
        return
      }
      budget.bytes += chunk.byteLength
      held += chunk.byteLength
      chunks.push(chunk)
    })
    stream.on("end", () => {
      if (stream.sizeExceeded || size > limits.messageBytesMax) {
        release()
        return callback(smtpError(552, "5.3.4 Message too big"))
      }
      if (deferred) return callback(smtpError(451, "4.3.1 Insufficient system storage: try again later"))
      const envelope = {
        mailFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
        recipients: session.envelope.rcptTo.map((to) => to.address)
      }
      run(InboundMail.parseAndReceive(Buffer.concat(chunks), envelope, settings.trustedAuthservId))
        .then((reply) => {
          release()
          if (reply.code === 250) callback(null, reply.message)
          else callback(smtpError(reply.code, reply.message))
        }, () => {
          release()
          callback(smtpError(451, "4.3.0 Temporary failure, try again later"))
        })
    })
  }

/** Starts the listener; resolves once it is bound. */
export const start = async (settings: Settings, run: Runner): Promise<Running> => {
  const bounds: Limits = { ...defaultLimits, ...settings.limits }
  const budget: Budget = { bytes: 0 }
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
    ...admission(bounds, budget, run),
    onData: receiver(settings, bounds, budget, run)
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
