import { Effect } from "effect"
import * as Secret from "../kernel/Secret.ts"

/**
 * Which statement lines are the same transaction (spec 3.5): the statement's own transaction id
 * (FITID), scoped to the bank account; else a hash of the date, amount, payee and memo together
 * with how many identical lines came before it in the same file, so that two real identical
 * charges on one day stay two lines while importing the file again adds nothing.
 */

export interface Content {
  readonly date: string
  readonly amountCents: number
  readonly payee: string | null
  readonly memo: string | null
}

/** The fields that make two lines the same, normalized so spacing and case do not matter. */
export const contentText = (line: Content): string =>
  [line.date, String(line.amountCents), normalizeText(line.payee), normalizeText(line.memo)].join("\u001f")

export const normalizeText = (text: string | null): string => (text ?? "").replace(/\s+/gu, " ").trim().toLowerCase()

/** A statement id that is real: not empty and not a mask of asterisks or zeros. */
export const usableStatementId = (id: string | null): string | null => {
  if (id === null) return null
  const trimmed = id.trim()
  return trimmed === "" || /^[*0\s-]+$/u.test(trimmed) ? null : trimmed
}

export const statementKey = (id: string): string => `id:${id}`

/** `hash:<sha-256 of content and occurrence>`, computed in place (Secret.sha256Hex). */
export const contentKey = (line: Content, occurrence: number): Effect.Effect<string> =>
  Effect.sync(() => `hash:${Secret.sha256Hex(`${contentText(line)}\u001f${occurrence}`)}`)

/**
 * Counts identical lines within one file as they are read: the first gets occurrence 1, the next
 * identical one 2, and so on.
 */
export const occurrenceCounter = () => {
  const seen = new Map<string, number>()
  return (line: Content): number => {
    const text = contentText(line)
    const count = (seen.get(text) ?? 0) + 1
    seen.set(text, count)
    return count
  }
}
