import { Webhooks } from "@ledger/client"

/**
 * A webhook receiver as a Fetch-style handler, so it runs on Node (see main.ts), on edge runtimes
 * and in serverless functions alike. It verifies the signature on the raw bytes before anything
 * else, refuses stale deliveries (replays), and acknowledges a redelivered event without handling
 * it twice. It answers quickly: slow work belongs in a queue, or Ledger retries the delivery.
 */

/** A delivery's body as Ledger sends it (docs/webhooks.md): the event id is a number. */
export interface LedgerEvent {
  readonly id: number
  readonly type: string
  readonly created_at: string
  readonly company_id: string
  readonly data: unknown
  readonly [field: string]: unknown
}

export interface ReceiverOptions {
  /** The endpoint's signing secret, or both secrets while one is being rotated. */
  readonly secrets: string | ReadonlyArray<string>
  readonly onEvent: (event: LedgerEvent) => Promise<void> | void
  readonly toleranceSeconds?: number
  /** The receiver's clock in unix seconds; the system's by default. */
  readonly nowSeconds?: () => number
  /** Event ids already handled; an in-memory set by default (use a table in production). */
  readonly seen?: { has(id: number): boolean; add(id: number): unknown }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

export const webhookReceiver = (options: ReceiverOptions) => {
  const seen = options.seen ?? new Set<number>()
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000))
  return async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { error: "POST only" })
    const payload = new Uint8Array(await request.arrayBuffer())
    const verification = await Webhooks.verifySignature({
      header: request.headers.get(Webhooks.headerName),
      payload,
      secrets: options.secrets,
      toleranceSeconds: options.toleranceSeconds,
      nowSeconds: now()
    })
    if (!verification.valid) return json(400, { error: verification.reason })

    let event: LedgerEvent
    try {
      event = JSON.parse(new TextDecoder().decode(payload)) as LedgerEvent
    } catch {
      return json(400, { error: "not_json" })
    }
    // Ledger's event ids are integers (the same for every retry and redelivery), not strings.
    if (!Number.isSafeInteger(event.id) || typeof event.type !== "string") return json(400, { error: "not_an_event" })
    if (seen.has(event.id)) return json(200, { received: true, duplicate: true })
    await options.onEvent(event)
    seen.add(event.id)
    return json(200, { received: true })
  }
}
