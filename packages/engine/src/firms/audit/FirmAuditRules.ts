import { sha256Hex } from "../../kernel/Secret.ts"

/**
 * The firm log's hash chain, as pure functions (docs/decisions/0901-firm-audit-hash-chain.md):
 * each event's hash is the SHA-256 of its canonical form, which includes the hash of the event
 * before it; the first event follows `genesis`. Verification walks the chain in sequence order and
 * names the first event that does not follow.
 */

export const genesis = "0".repeat(64)

/** An event as it is hashed: every column but its own hash. */
export interface ChainedEvent {
  readonly firm_id: number
  readonly seq: number
  readonly occurred_at: string
  readonly action: string
  readonly principal_type: string
  readonly principal_id: string | null
  readonly principal_name: string | null
  readonly key_id: number | null
  readonly company_id: string | null
  readonly target_type: string | null
  readonly target_id: string | null
  readonly reason: string | null
  readonly via: string
  readonly details: unknown
  readonly prev_hash: string
}

/** JSON with every object's keys sorted, at every depth: the same value always gives the same text. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`
}

/** The canonical form of an event: its fields in a fixed order, its details canonical. */
export const canonicalForm = (event: ChainedEvent): string =>
  canonicalJson([
    "ledger.firm_audit.v1",
    event.firm_id,
    event.seq,
    event.occurred_at,
    event.action,
    event.principal_type,
    event.principal_id,
    event.principal_name,
    event.key_id,
    event.company_id,
    event.target_type,
    event.target_id,
    event.reason,
    event.via,
    event.details ?? {},
    event.prev_hash
  ])

export const hashOf = (event: ChainedEvent): string => sha256Hex(canonicalForm(event))

export type Problem = "hash_mismatch" | "link_broken" | "sequence_gap" | "head_mismatch"

export interface Verdict {
  readonly valid: boolean
  readonly events_checked: number
  readonly head_seq: number
  readonly head_hash: string
  readonly first_broken_seq: number | null
  readonly problem: Problem | null
  readonly message: string
}

const broken = (checked: number, head: { seq: number; hash: string }, seq: number, problem: Problem, message: string): Verdict => ({
  valid: false,
  events_checked: checked,
  head_seq: head.seq,
  head_hash: head.hash,
  first_broken_seq: seq,
  problem,
  message
})

/**
 * Walks `events` (in seq order, each with its stored hash) against the firm's recorded head: the
 * first event out of sequence, whose hash is not its content's, or that does not name its
 * predecessor's hash breaks the chain; a chain that ends elsewhere than the head was cut or grown.
 */
export const verify = (
  events: ReadonlyArray<ChainedEvent & { readonly hash: string }>,
  head: { readonly seq: number; readonly hash: string }
): Verdict => {
  let previous = genesis
  let expected = 1
  for (const event of events) {
    if (event.seq !== expected) {
      return broken(expected - 1, head, expected, "sequence_gap", `Event ${expected} is missing: the next stored event is ${event.seq}.`)
    }
    if (hashOf(event) !== event.hash) {
      return broken(expected - 1, head, event.seq, "hash_mismatch", `Event ${event.seq} was changed after it was written.`)
    }
    if (event.prev_hash !== previous) {
      return broken(expected - 1, head, event.seq, "link_broken", `Event ${event.seq} does not follow event ${event.seq - 1}.`)
    }
    previous = event.hash
    expected++
  }
  const last = expected - 1
  if (last !== head.seq || previous !== (head.seq === 0 ? genesis : head.hash)) {
    return broken(last, head, last === head.seq ? last : Math.min(last + 1, head.seq + 1), "head_mismatch",
      `The log ends at event ${last} but the firm's head is event ${head.seq}: events were cut or added at the end.`)
  }
  return {
    valid: true,
    events_checked: last,
    head_seq: head.seq,
    head_hash: head.hash,
    first_broken_seq: null,
    problem: null,
    message: last === 0 ? "The log is empty." : `All ${last} events follow each other.`
  }
}
