import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"

/**
 * The webhooks area's pure rules: the retry schedule and its jitter, the automatic turn-off, the
 * signature header (spec 6.2, ADR 0604) and the body of a delivery. Which operation emits which
 * event is declared with the event by its area (`@ledger/api` `Events`, ADR 2010). Tested with
 * properties in test/webhooks/rules.test.ts.
 */

/** Delay before retry n (n = 1 after the first failed attempt): 1 min, 4 min, 16 min, 64 min, 256 min, then 12 h. */
export const baseDelaySeconds = (retry: number): number => Math.min(60 * 4 ** Math.max(0, retry - 1), 12 * 3600)

/** The first attempt and ten retries: the last one about 2.7 days (66 hours) after the first. */
export const attemptsMax = 11

/** Seconds a receiver has to answer before the attempt counts as failed. */
export const timeoutSeconds = 10

/** An endpoint whose attempts have all failed for this long is turned off (`disabled_reason: failing`). */
export const turnOffAfterSeconds = 72 * 3600

/** The schedule as `GET /v1/webhooks` shows it. */
export const retryDelaysSeconds: ReadonlyArray<number> = Array.from({ length: attemptsMax - 1 }, (_, index) => baseDelaySeconds(index + 1))

/**
 * A number in [0, 1) from a delivery and a retry: the jitter is deterministic, so a delivery's
 * schedule can be replayed and tested, while deliveries that failed together spread apart.
 */
const unitOf = (deliveryId: number, retry: number): number => {
  const digest = sha256(new TextEncoder().encode(`${deliveryId}:${retry}`))
  return ((digest[0]! << 16) | (digest[1]! << 8) | digest[2]!) / 0x1000000
}

/** The delay before retry n of a delivery: the base delay, give or take up to 10 percent. */
export const retryDelaySeconds = (deliveryId: number, retry: number): number =>
  Math.round(baseDelaySeconds(retry) * (0.9 + 0.2 * unitOf(deliveryId, retry)))

/** What to do after a failed attempt (`attempts` counts it): retry after a delay, or stop. */
export const afterFailure = (deliveryId: number, attempts: number): { readonly retryInSeconds: number } | null =>
  attempts >= attemptsMax ? null : { retryInSeconds: retryDelaySeconds(deliveryId, attempts) }

/** Whether an endpoint failing since `failingSince` (ms) is turned off by a failure at `now` (ms). */
export const turnsOff = (failingSinceMs: number, nowMs: number): boolean => nowMs - failingSinceMs >= turnOffAfterSeconds * 1000

const encoder = new TextEncoder()

/** hex(HMAC-SHA256(key, message)): @noble/hashes, checked against RFC 4231's vectors. */
export const hmacHex = (key: Uint8Array, message: Uint8Array): string => bytesToHex(hmac(sha256, key, message))

/** hex(HMAC-SHA256(secret, `${t}.${body}`)): the key is the whole secret as UTF-8 (ADR 0604). */
export const signature = (secret: string, timestamp: number, body: string): string =>
  hmacHex(encoder.encode(secret), encoder.encode(`${timestamp}.${body}`))

/** `t=<unix seconds>,v1=<current>[,v1=<previous>]`: one `v1` per secret still valid, newest first. */
export const signatureHeader = (secrets: ReadonlyArray<string>, timestamp: number, body: string): string =>
  [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signature(secret, timestamp, body)}`)].join(",")

/** The body every delivery carries (DECISIONS.md "Webhooks"). */
export const eventBody = (event: {
  readonly id: number
  readonly type: string
  readonly createdAt: string
  readonly companyId: string
  readonly data: unknown
}): string => JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt, company_id: event.companyId, data: event.data })

/** The stored subscription: duplicates dropped, `*` alone when it is given. */
export const normalizeSubscriptions = (types: ReadonlyArray<string>): Array<string> =>
  types.includes("*") ? ["*"] : Array.from(new Set(types))
