/**
 * When the SDK tries a call again, and after how long: a pure function of the attempt and what it
 * ended in, so the rules are tested directly. Every retry reuses the call's Idempotency-Key, which
 * is what makes retrying a write safe: the server replays the first result instead of writing twice.
 */

export interface RetryOptions {
  /** Attempts after the first; 0 turns retrying off. */
  readonly retriesMax: number
  /** The first backoff; each further one doubles, up to `delayMsMax`. */
  readonly delayMsBase: number
  readonly delayMsMax: number
  /** A Retry-After longer than this is not waited for: the 429 or 503 is returned instead. */
  readonly retryAfterMsMax: number
}

export const defaults: RetryOptions = {
  retriesMax: 3,
  delayMsBase: 250,
  delayMsMax: 8_000,
  retryAfterMsMax: 60_000
}

/** How one attempt ended, as far as retrying is concerned. */
export type AttemptOutcome =
  | { readonly _tag: "NetworkFailure" }
  | { readonly _tag: "Timeout" }
  | {
    readonly _tag: "Response"
    readonly status: number
    /** The error body's type, when the answer was an error body. */
    readonly errorType: string | null
    /** Retry-After, already converted to milliseconds. */
    readonly retryAfterMs: number | null
  }

export type Decision =
  | { readonly retry: false }
  | { readonly retry: true; readonly delayMs: number }

const stop: Decision = { retry: false }

/** Statuses that say "the server or something in front of it failed, try again". */
const transientStatuses: ReadonlySet<number> = new Set([500, 502, 503, 504])

/**
 * The exponential backoff before retry number `attempt + 1` (attempt 0 is the first try), with
 * "equal jitter": half fixed, half random, so many clients that failed together do not retry
 * together. `random` is in [0, 1).
 */
export const backoffMs = (attempt: number, options: RetryOptions, random: number): number => {
  const ceiling = Math.min(options.delayMsMax, options.delayMsBase * 2 ** Math.min(attempt, 30))
  return Math.round(ceiling / 2 + (ceiling / 2) * random)
}

/** Decides whether attempt number `attempt` (0 for the first) is followed by another. */
export const decide = (attempt: number, outcome: AttemptOutcome, options: RetryOptions, random: number): Decision => {
  if (attempt >= options.retriesMax) return stop
  switch (outcome._tag) {
    case "NetworkFailure":
    case "Timeout":
      return { retry: true, delayMs: backoffMs(attempt, options, random) }
    case "Response": {
      const retryable = outcome.status === 429 || transientStatuses.has(outcome.status) ||
        (outcome.status === 409 && outcome.errorType === "idempotency_in_progress")
      if (!retryable) return stop
      if (outcome.retryAfterMs !== null) {
        // The server said when: wait exactly that, or give the answer back if it is too long.
        return outcome.retryAfterMs > options.retryAfterMsMax ? stop : { retry: true, delayMs: outcome.retryAfterMs }
      }
      return { retry: true, delayMs: backoffMs(attempt, options, random) }
    }
  }
}

/**
 * Retry-After in milliseconds: delay-seconds or an HTTP date (RFC 9110 10.2.3), null when absent
 * or unreadable. A date in the past means "now".
 */
export const retryAfterMs = (header: string | null | undefined, nowMs: number): number | null => {
  if (header === null || header === undefined) return null
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1_000
  const dateMs = Date.parse(value)
  if (Number.isNaN(dateMs) || !/[a-z]/i.test(value)) return null
  return Math.max(0, dateMs - nowMs)
}

/** Fills unset retry options from the defaults; `false` turns retrying off. */
export const resolve = (options: Partial<RetryOptions> | false | undefined, base: RetryOptions = defaults): RetryOptions =>
  options === false ? { ...base, retriesMax: 0 } : { ...base, ...withoutUndefined(options ?? {}) }

const withoutUndefined = (options: Partial<RetryOptions>): Partial<RetryOptions> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<RetryOptions>
