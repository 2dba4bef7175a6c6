import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import { sha256Hex } from "../kernel/Secret.ts"

/**
 * The company audit log's hash chain (docs/decisions/2310-company-audit-hash-chain.md): the
 * database chains every event as it is inserted (migration 0049's trigger); this module walks the
 * chain again and names the first event that does not hold, as the firm log's verifier does
 * (ADR 0901), and reads the head for an operator to record outside the database (ADR 0903).
 *
 * The canonical text is rebuilt here from the columns read as plain text, not by the database's
 * `ledger_audit_hash`: a superuser who replaced that function could not make an edited event pass.
 */

export const genesis = "0".repeat(64)

/** The columns hashed, in the canonical text's order, each as text (NULL stays null). */
export const hashedColumns = [
  "prev_hash",
  "company_id",
  "seq",
  "id",
  "occurred_us",
  "action",
  "outcome",
  "status",
  "error_type",
  "principal_type",
  "principal_id",
  "principal_name",
  "key_id",
  "agent_model",
  "agent_run_id",
  "target_type",
  "target_id",
  "reason",
  "via",
  "details"
] as const

export type StoredEvent = { readonly [Column in (typeof hashedColumns)[number]]: string | null } & { readonly hash: string | null }

const encoder = new TextEncoder()

/** `<bytes>:<text>` for a value (its UTF-8 length, as octet_length), `~` for NULL: no value can be read as two. */
const field = (value: string | null): string => value === null ? "~" : `${encoder.encode(value).length}:${value}`

/** The canonical text of an event (ledger_audit_hash in migration 0049 builds the same). */
export const canonicalText = (event: StoredEvent): string => `ledger.audit.v1${hashedColumns.map((column) => field(event[column])).join("")}`

export const hashOf = (event: StoredEvent): string => sha256Hex(canonicalText(event))

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

/** A head recorded outside the database (`ledger audit-head`): the chain must still pass through it. */
export interface Anchor {
  readonly seq: number
  readonly hash: string
}

export interface Head {
  readonly seq: number
  readonly hash: string
}

/**
 * The walk, one page at a time, holding only the last hash (a log of millions of events is
 * verified in bounded memory): `step` takes each event in seq order and answers a broken verdict
 * at the first that does not hold; `finish` checks the end against the head and the anchor.
 */
export const walker = (head: Head, anchor: Anchor | null) => {
  let previous = genesis
  let expected = 1
  let anchored: string | null = anchor?.seq === 0 ? genesis : null
  const broken = (seq: number, problem: Problem, message: string): Verdict => ({
    valid: false,
    events_checked: expected - 1,
    head_seq: head.seq,
    head_hash: head.hash,
    first_broken_seq: seq,
    problem,
    message
  })
  const step = (event: StoredEvent): Verdict | null => {
    const seq = Number(event.seq)
    if (seq !== expected) {
      return broken(expected, "sequence_gap", `Event ${expected} is missing: the next stored event is ${event.seq}.`)
    }
    if (event.hash === null || hashOf(event) !== event.hash) {
      return broken(seq, "hash_mismatch", `Event ${seq} was changed after it was written.`)
    }
    if (event.prev_hash !== previous) {
      return broken(seq, "link_broken", `Event ${seq} does not follow event ${seq - 1}.`)
    }
    if (anchor !== null && seq === anchor.seq) anchored = event.hash
    previous = event.hash
    expected++
    return null
  }
  /** `beyondHead`: the highest seq stored, read with the head in one statement. */
  const finish = (beyondHead: { readonly headSeq: number; readonly maxSeq: number }): Verdict => {
    const last = expected - 1
    if (last !== head.seq || previous !== (head.seq === 0 ? genesis : head.hash)) {
      return broken(last === head.seq ? last : Math.min(last + 1, head.seq + 1), "head_mismatch",
        `The log ends at event ${last} but the company's head is event ${head.seq}: events were cut or added at the end.`)
    }
    if (beyondHead.maxSeq > beyondHead.headSeq) {
      return broken(beyondHead.headSeq + 1, "head_mismatch",
        `Event ${beyondHead.headSeq + 1} is stored past the company's head: it was added outside the log's trigger.`)
    }
    if (anchor !== null && anchored !== anchor.hash.toLowerCase()) {
      return broken(anchor.seq, "anchor_mismatch", anchored === null
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
  return { step, finish }
}

/** Events read a page at a time while verifying. */
export const verifyPageSize = 1_000

/** The head as the database holds it; a company with no event yet has the empty chain's. */
export const head = Effect.fn("AuditChain.head")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ seq: unknown; hash: string }>`SELECT seq, hash FROM audit_chain_heads WHERE company_id = ${companyId}`
    .pipe(Effect.orDie)
  const row = rows[0]
  return row === undefined ? { seq: 0, hash: genesis } : { seq: Row.int(row.seq), hash: String(row.hash) }
})

/**
 * Recomputes the company's chain up to the head read at the start (events a concurrent write
 * adds later are the next verification's), then checks, in one statement, that no event is
 * stored past the head as it then stands: each page is its own statement, so a long walk never
 * holds a snapshot or the embedded store's one connection.
 */
export const verify = Effect.fn("AuditChain.verify")(function*(companyId: string, anchor: Anchor | null) {
  const sql = yield* SqlClient.SqlClient
  const start = yield* head(companyId)
  const walk = walker(start, anchor)
  // Keyset on (seq, id): a second event stored under one seq (the unique index dropped) is read too.
  let after = { seq: 0, id: "0" }
  while (true) {
    const rows = yield* sql<StoredEvent>`SELECT e.prev_hash, e.company_id::text AS company_id, e.seq::text AS seq,
        e.id::text AS id, ((extract(epoch FROM e.occurred_at) * 1000000)::bigint)::text AS occurred_us, e.action, e.outcome,
        e.status::text AS status, e.error_type, e.principal_type, e.principal_id, e.principal_name, e.key_id::text AS key_id,
        e.agent_model, e.agent_run_id, e.target_type, e.target_id, e.reason, e.via, e.details::text AS details, e.hash
      FROM audit_events e WHERE e.company_id = ${companyId} AND e.seq >= ${after.seq}
        AND (e.seq, e.id) > (${after.seq}, ${after.id}::bigint) AND e.seq <= ${start.seq}
      -- The columns, not the text of them the select names alike.
      ORDER BY e.seq, e.id LIMIT ${verifyPageSize}`.pipe(Effect.orDie)
    for (const row of rows) {
      const verdict = walk.step(row)
      if (verdict !== null) return verdict
    }
    if (rows.length < verifyPageSize) break
    const last = rows[rows.length - 1]!
    after = { seq: Number(last.seq), id: String(last.id) }
  }
  const ends = yield* sql<{ head_seq: unknown; max_seq: unknown }>`SELECT
      coalesce((SELECT seq FROM audit_chain_heads WHERE company_id = ${companyId}), 0) AS head_seq,
      coalesce((SELECT max(seq) FROM audit_events WHERE company_id = ${companyId}), 0) AS max_seq`.pipe(Effect.orDie)
  return walk.finish({ headSeq: Row.int(ends[0]!.head_seq), maxSeq: Row.int(ends[0]!.max_seq) })
})

/**
 * A company's head for an operator to record outside the database (`ledger audit-head`,
 * `GET /v1/operator/companies/{id}/audit-head`) and give back to the verifier as its anchor.
 * None for a company that does not exist.
 */
export const companyHead = Effect.fn("AuditChain.companyHead")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ seq: unknown; hash: string | null }>`SELECT h.seq, h.hash FROM companies c
    LEFT JOIN audit_chain_heads h ON h.company_id = c.company_id WHERE c.company_id = ${companyId}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return null
  return { company_id: companyId, head_seq: row.hash === null ? 0 : Row.int(row.seq), head_hash: row.hash ?? genesis }
})
