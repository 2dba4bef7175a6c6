import type { SourceObject } from "../ports/CommerceProviders.ts"

/**
 * The pure rules of integrations: where each synced amount lands (a mapping of its kind and key,
 * else the kind's `*` default), the exact entry a synced object posts, the gaps that keep a mapping
 * from approval, and what a sync does with an object it has seen before (ADRs 1601-1603).
 */

export const kinds = ["category", "product", "discount", "shipping", "tax", "tip", "fee", "refund", "payout"] as const
export type Kind = typeof kinds[number]

/** Amounts of these kinds are credited (sales, and what is collected for others); the rest debited. */
const creditKinds: ReadonlySet<Kind> = new Set(["category", "product", "shipping", "tax", "tip"])
export const sideOf = (kind: Kind): "debit" | "credit" => creditKinds.has(kind) ? "credit" : "debit"

export interface MappingRow {
  readonly kind: Kind
  readonly sourceKey: string
  readonly accountCode: string | null
  readonly className: string | null
}

export interface Resolved {
  readonly account: string
  readonly className: string | null
}

/** The account an amount of `kind` with `key` lands in: its own mapping, else the kind's default. */
export const resolve = (mappings: ReadonlyArray<MappingRow>, kind: Kind, key: string, payoutAccount: string | null): Resolved | null => {
  const own = mappings.find((mapping) => mapping.kind === kind && mapping.sourceKey === key)
  const fallback = mappings.find((mapping) => mapping.kind === kind && mapping.sourceKey === "*")
  const account = own?.accountCode ?? fallback?.accountCode ?? (kind === "payout" ? payoutAccount : null)
  if (account === null || account === undefined) return null
  return { account, className: own?.className ?? fallback?.className ?? null }
}

/** The kinds whose default `*` lands nowhere: the mapping cannot be approved while any remains. */
export const gaps = (
  mappings: ReadonlyArray<MappingRow>,
  payoutAccount: string | null,
  relevant: ReadonlyArray<Kind> = kinds
): ReadonlyArray<string> =>
  relevant.filter((kind) => resolve(mappings, kind, "*", payoutAccount) === null).map((kind) => `${kind}:*`)

export interface DraftLine {
  readonly account: string
  readonly debit_cents?: number
  readonly credit_cents?: number
  readonly memo?: string
  readonly class?: string
}

export type Drafted =
  | { readonly _tag: "Entry"; readonly lines: ReadonlyArray<DraftLine>; readonly totalCents: number }
  | { readonly _tag: "Unmapped"; readonly missing: ReadonlyArray<string> }
  | { readonly _tag: "Empty" }

/**
 * The exact entry of a synced object: each amount on its side in its mapped account, summed per
 * account and class, and the clearing account taking the difference (what the provider holds for
 * the business). Debits equal credits by construction.
 */
export const draft = (
  object: SourceObject,
  mappings: ReadonlyArray<MappingRow>,
  clearingAccount: string,
  payoutAccount: string | null
): Drafted => {
  const sums = new Map<string, { account: string; className: string | null; signed: number }>()
  const missing: Array<string> = []
  for (const line of object.lines) {
    const resolved = resolve(mappings, line.kind, line.key, payoutAccount)
    if (resolved === null) {
      missing.push(`${line.kind}:${line.key}`)
      continue
    }
    const id = `${resolved.account}\u0000${resolved.className ?? ""}`
    const current = sums.get(id) ?? { account: resolved.account, className: resolved.className, signed: 0 }
    // Signed: positive is a debit.
    current.signed += sideOf(line.kind) === "debit" ? line.amountCents : -line.amountCents
    sums.set(id, current)
  }
  if (missing.length > 0) return { _tag: "Unmapped", missing: Array.from(new Set(missing)) }
  const clearing = -Array.from(sums.values()).reduce((total, sum) => total + sum.signed, 0)
  const parts = [...sums.values(), { account: clearingAccount, className: null, signed: clearing }].filter((part) => part.signed !== 0)
  if (parts.length === 0) return { _tag: "Empty" }
  const lines = parts.map((part): DraftLine => ({
    account: part.account,
    ...(part.signed > 0 ? { debit_cents: part.signed } : { credit_cents: -part.signed }),
    memo: `${object.type} ${object.id}`.slice(0, 200),
    ...(part.className === null ? {} : { class: part.className })
  }))
  // An entry needs two lines: one amount on its own (a payout into the clearing account) cannot post.
  if (lines.length < 2) return { _tag: "Empty" }
  const totalCents = lines.reduce((total, line) => total + (line.debit_cents ?? 0), 0)
  return { _tag: "Entry", lines, totalCents }
}

export type Seen = { readonly status: string; readonly version: string } | null

/**
 * What a sync does with an object (ADR 1603): a new one is written; the same version again is
 * `unchanged` (never posted twice, also after a reconnect); one waiting on a mapping gap
 * (`pending`) is tried again as it now is; a changed version of one already posted, proposed or
 * decided waits for a person (`needs_review`).
 */
export const classify = (seen: Seen, version: string): "new" | "unchanged" | "correct_in_place" | "needs_review" => {
  if (seen === null) return "new"
  // `pending` waits on a mapping gap: every sync tries it again, as it now is.
  if (seen.status === "pending") return "correct_in_place"
  if (seen.version === version) return "unchanged"
  return "needs_review"
}
