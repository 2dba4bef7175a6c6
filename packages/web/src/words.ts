import { formatCents } from "./money.ts"

/**
 * What the app shows a person instead of the API's raw words: record kinds in words, amounts in
 * headings in the same format as the lines below them, and refusals with what the API said about
 * each field and how many tries are left (issue 38 item 16). Pure functions, tested without a
 * browser in packages/web/test/app-rules.test.ts.
 */

/** Kinds whose words are not just their name with spaces (everything else: "bank_transfer" -> "Bank transfer"). */
const kindWords: Readonly<Record<string, string>> = {
  journal_entry: "Journal entry",
  ap_bill: "Bill",
  ar_invoice: "Invoice",
  w9: "W-9",
  "1099": "1099"
}

/** A record kind as words: `journal_entry` -> "Journal entry". */
export const kindInWords = (kind: string): string => {
  const known = kindWords[kind]
  if (known !== undefined) return known
  const spaced = kind.replace(/[_-]+/gu, " ").trim()
  return spaced === "" ? kind : `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}`
}

/** "(12345 cents)" in a summary the engine wrote -> "(123.45)", as the lines show amounts. */
export const amountsInWords = (text: string): string =>
  text.replace(/(-?\d{1,16}) cents\b/gu, (_match, digits: string) => formatCents(Number(digits)))

export interface FieldIssue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/** At most this many field issues are shown under a refusal; the API itself caps the list. */
export const issuesShownMax = 5

const issuesOf = (details: Readonly<Record<string, unknown>> | undefined): ReadonlyArray<FieldIssue> => {
  const issues = details?.issues
  if (!Array.isArray(issues)) return []
  return issues.filter((issue): issue is FieldIssue =>
    typeof issue === "object" && issue !== null && typeof (issue as FieldIssue).message === "string" && Array.isArray((issue as FieldIssue).path))
}

/** One field issue in words: "reason: is required" ("reason is required" when the message names nothing). */
const issueInWords = (issue: FieldIssue): string => {
  const field = issue.path.map(String).join(".")
  return field === "" ? issue.message : `${field}: ${issue.message}`
}

/**
 * A refusal as a person reads it: the API's message, then each field issue it listed, then the
 * tries left after a wrong code (`details.attempts_left`).
 */
export const refusalInWords = (body: { readonly type: string; readonly message: string; readonly details?: Readonly<Record<string, unknown>> | undefined }): string => {
  const issues = issuesOf(body.details)
  const parts = [body.message]
  if (issues.length > 0) {
    const shown = issues.slice(0, issuesShownMax).map(issueInWords)
    const more = issues.length - shown.length
    parts.push(`${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}.`)
  }
  const left = body.details?.attempts_left
  if (typeof left === "number" && Number.isSafeInteger(left) && left >= 0) {
    parts.push(left === 0 ? "No tries are left: ask for a new code." : `${left} ${left === 1 ? "try" : "tries"} left.`)
  }
  return parts.join(" ")
}
