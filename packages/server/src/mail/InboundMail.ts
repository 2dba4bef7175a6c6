import { Clock, Effect, type ManagedRuntime } from "effect"
import { HeavyWork, Receipts } from "@ledger/engine"
import * as MimeParse from "./MimeParse.ts"

/**
 * The receipt inbox's mail adapter: a raw MIME message (as an SMTP listener receives it) parsed
 * with `mailparser` and handed to the engine (`Receipts.Intake.receive`) with its envelope.
 * Sender authentication is read from `Authentication-Results` headers written by the verifier
 * the deployment trusts (`LEDGER_INBOUND_AUTHSERV_ID`, e.g. the MTA in front running SPF, DKIM
 * and DMARC checks); without one every message counts as unauthenticated and waits in review.
 * ADR 1203. The parse is a HeavyWork job (MimeParse.ts): a worker thread under `ledger serve` (ADR 2320).
 */

export { type Envelope, parse, parseMail } from "./MimeParse.ts"
type Envelope = MimeParse.Envelope

export interface Options {
  /** The authserv-id whose Authentication-Results are believed; null: none is. */
  readonly trustedAuthservId: string | null
  /** The clock the engine reads; a server's is the system clock (tests pass the app's manual clock). */
  readonly clock?: Clock.Clock | undefined
}

/** Parses and receives one message through an app's runtime; answers what became of each recipient. */
export const receive = async (
  runtime: ManagedRuntime.ManagedRuntime<any, any>,
  raw: Uint8Array | string,
  envelope: Envelope,
  options: Options
): Promise<ReadonlyArray<Receipts.Intake.Delivery>> => {
  const received = HeavyWork.run(MimeParse.parseMail, { raw, envelope, trustedAuthservId: options.trustedAuthservId }).pipe(
    Effect.flatMap(Receipts.Intake.receive)
  ) as Effect.Effect<ReadonlyArray<Receipts.Intake.Delivery>, HeavyWork.HeavyWorkRefused, any>
  return runtime.runPromise(options.clock === undefined ? received : Effect.provideService(received, Clock.Clock, options.clock))
}

export interface SmtpReply {
  readonly code: number
  readonly message: string
}

/**
 * Parses (in a worker thread when the server has a pool) and receives one message, answering the
 * SMTP reply: a message past the parse's memory is refused for good (552: the same bytes would
 * need the same memory again); one past the parse's time, or that no worker could take now, is
 * deferred (451, the sender retries). Time is wall time, so a genuine large message on a busy
 * machine can pass it: refusing it for good would lose the receipt, while a hostile one retried is
 * bounded by the address's rate and the company's daily quota.
 */
export const parseAndReceive = (raw: Uint8Array, envelope: Envelope, trustedAuthservId: string | null) =>
  HeavyWork.run(MimeParse.parseMail, { raw, envelope, trustedAuthservId }).pipe(
    Effect.flatMap(Receipts.Intake.receive),
    Effect.map(smtpReply),
    Effect.catchTag("HeavyWorkRefused", (refused): Effect.Effect<SmtpReply> =>
      Effect.succeed(
        refused.reason === "unavailable"
          ? { code: 451, message: "4.3.2 Too busy to read this message now: try again later" }
          : refused.reason === "time"
          ? { code: 451, message: "4.3.0 Could not finish reading this message in time: try again later" }
          : { code: 552, message: "5.3.4 Message too complex to process" }
      ))
  )

/** An SMTP reply for a delivery: 250 accepted, 550 for an unknown or rotated address. */
export const smtpReply = (deliveries: ReadonlyArray<Receipts.Intake.Delivery>): SmtpReply => {
  const refused = deliveries.find((delivery) => delivery.outcome !== "accepted")
  if (refused !== undefined && deliveries.every((delivery) => delivery.outcome !== "accepted")) {
    return { code: 550, message: refused.outcome === "refused" ? "5.1.1 This address was rotated and no longer receives mail" : "5.1.1 No such mailbox" }
  }
  return { code: 250, message: "2.0.0 Received" }
}

