import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { RefusalLog } from "../../kernel/Registry.ts"
import * as Row from "../../kernel/Row.ts"
import { sha256Hex } from "../../kernel/Secret.ts"

/**
 * The firm log's hash chain (docs/decisions/0901-firm-audit-hash-chain.md): its pure rules, and
 * the one statement sequence that appends an event. The firms area's handlers append through
 * `FirmAudit.ts`, which uses `appendEvent` below; the pipeline appends a refusal of a known firm
 * credential (spec 5.7, ADR 0903) through `refusalLog`, which the area registers (index.ts).
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

export type Problem = "hash_mismatch" | "link_broken" | "sequence_gap" | "head_mismatch" | "anchor_mismatch"

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
 * A head recorded outside the database (`ledger firm-audit-head`, ADR 0903): the chain must still
 * pass through this event with this hash.
 */
export interface Anchor {
  readonly seq: number
  readonly hash: string
}

/**
 * Walks `events` (in seq order, each with its stored hash) against the firm's recorded head: the
 * first event out of sequence, whose hash is not its content's, or that does not name its
 * predecessor's hash breaks the chain; a chain that ends elsewhere than the head was cut or grown.
 * With an `anchor` (a head an operator recorded earlier), a chain that does not pass through it
 * was rewritten, however consistently: `anchor_mismatch`.
 */
export const verify = (
  events: ReadonlyArray<ChainedEvent & { readonly hash: string }>,
  head: { readonly seq: number; readonly hash: string },
  anchor: Anchor | null = null
): Verdict => {
  let previous = genesis
  let expected = 1
  let anchored: string | null = anchor === null || anchor.seq !== 0 ? null : genesis
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
    if (anchor !== null && event.seq === anchor.seq) anchored = event.hash
    previous = event.hash
    expected++
  }
  const last = expected - 1
  if (last !== head.seq || previous !== (head.seq === 0 ? genesis : head.hash)) {
    return broken(last, head, last === head.seq ? last : Math.min(last + 1, head.seq + 1), "head_mismatch",
      `The log ends at event ${last} but the firm's head is event ${head.seq}: events were cut or added at the end.`)
  }
  if (anchor !== null && anchored !== anchor.hash.toLowerCase()) {
    return broken(last, head, anchor.seq, "anchor_mismatch", anchored === null
      ? `The log ends at event ${last}, before the recorded head ${anchor.seq}: the log was cut and its head rewritten.`
      : `Event ${anchor.seq} is not the one recorded outside the database: the log was rewritten from there or before.`)
  }
  return {
    valid: true,
    events_checked: last,
    head_seq: head.seq,
    head_hash: head.hash,
    first_broken_seq: null,
    problem: null,
    message: last === 0 ? "The log is empty." : `All ${last} events follow each other${anchor === null ? "" : `, through the recorded head ${anchor.seq}`}.`
  }
}

/** An event to append, less what the chain gives it (its seq, its predecessor's hash, its own). */
export type Unchained = Omit<ChainedEvent, "firm_id" | "seq" | "prev_hash">

/**
 * Appends one event to the firm's chain, in the transaction current on `sql`: the firm's row (its
 * head) is locked while the event is numbered, written and made the head, so a firm's events are
 * numbered 1, 2, 3... without gaps whatever runs concurrently.
 */
export const appendEvent = Effect.fn("FirmAuditChain.appendEvent")(function*(sql: SqlClient.SqlClient, firmId: number, event: Unchained) {
  // NO KEY UPDATE, not UPDATE: the change being audited may have inserted a row referencing the
  // firm (a member, a key), which holds KEY SHARE on it; two such changes asking FOR UPDATE would
  // deadlock, while NO KEY UPDATE waits only for the other's append.
  const heads = yield* sql<Record<string, unknown>>`SELECT audit_seq, audit_head FROM firms WHERE id = ${firmId} FOR NO KEY UPDATE`
    .pipe(Effect.orDie)
  const head = heads[0]
  if (head === undefined) return yield* Effect.die(new Error(`no firm ${firmId}`))
  const chained: ChainedEvent = {
    ...event,
    firm_id: firmId,
    seq: Row.int(head.audit_seq) + 1,
    details: JSON.parse(JSON.stringify(event.details ?? {})) as unknown,
    prev_hash: String(head.audit_head)
  }
  const hash = hashOf(chained)
  yield* sql`INSERT INTO firm_audit_events ${sql.insert({ ...chained, details: JSON.stringify(chained.details), hash })}`
    .pipe(Effect.orDie)
  yield* sql`UPDATE firms SET audit_seq = ${chained.seq}, audit_head = ${hash} WHERE id = ${firmId}`.pipe(Effect.orDie)
  return { seq: chained.seq, hash }
})

/** A refusal of a firm credential's request in the firm's log, in a transaction of its own (ADR 0903); others' are not its. */
export const refusalLog: RefusalLog = (refusal) => {
  const firmId = refusal.actor.firmId
  return firmId === null ? Effect.void : Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.asVoid(sql.withTransaction(appendEvent(sql, firmId, {
      occurred_at: Row.iso(refusal.now),
      action: refusal.action,
      principal_type: refusal.actor.type,
      principal_id: refusal.actor.id === null ? null : String(refusal.actor.id),
      principal_name: refusal.actor.name,
      key_id: refusal.actor.keyId,
      company_id: refusal.companyId,
      target_type: null,
      target_id: null,
      reason: null,
      via: refusal.via,
      details: refusal.details
    }))))
}
