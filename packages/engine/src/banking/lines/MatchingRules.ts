/**
 * Auto-matching (spec 3.5) as a pure decision: a line matches an entry of exactly its amount
 * dated within the window, but only when each is the other's one candidate. Anything with two
 * candidates on either side is ambiguous and left for a person.
 */

export interface Line {
  readonly id: number
  readonly bankAccountId: number
  readonly date: string
  readonly amountCents: number
}

export interface Candidate {
  readonly entryId: number
  readonly date: string
  /** The entry's effect on the bank's ledger account, as a bank line would state it. */
  readonly amountCents: number
}

const dayNumber = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000

export const daysApart = (left: string, right: string): number => Math.abs(dayNumber(left) - dayNumber(right))

export interface Decision {
  readonly matched: ReadonlyArray<{ readonly lineId: number; readonly entryId: number }>
  readonly ambiguous: ReadonlyArray<{ readonly lineId: number; readonly entryIds: ReadonlyArray<number> }>
}

export const decide = (lines: ReadonlyArray<Line>, candidates: ReadonlyArray<Candidate>, windowDays: number): Decision => {
  const fits = (line: Line, candidate: Candidate) =>
    candidate.amountCents === line.amountCents && daysApart(line.date, candidate.date) <= windowDays
  const entriesOf = new Map(lines.map((line) => [line.id, candidates.filter((candidate) => fits(line, candidate))]))
  const linesOf = new Map(candidates.map((candidate) => [candidate.entryId, lines.filter((line) => fits(line, candidate))]))
  const matched: Array<{ lineId: number; entryId: number }> = []
  const ambiguous: Array<{ lineId: number; entryIds: Array<number> }> = []
  for (const line of lines) {
    const entries = entriesOf.get(line.id)!
    if (entries.length === 0) continue
    if (entries.length === 1 && linesOf.get(entries[0]!.entryId)!.length === 1) {
      matched.push({ lineId: line.id, entryId: entries[0]!.entryId })
    } else {
      ambiguous.push({ lineId: line.id, entryIds: entries.map((entry) => entry.entryId) })
    }
  }
  return { matched, ambiguous }
}

/**
 * Transfers between two of the company's bank accounts: money out of one and the same amount
 * into another within the window, paired only when each line has exactly one partner.
 */
export const pairTransfers = (lines: ReadonlyArray<Line>, windowDays: number) => {
  const fits = (out: Line, into: Line) =>
    out.bankAccountId !== into.bankAccountId && out.amountCents < 0 && into.amountCents === -out.amountCents &&
    daysApart(out.date, into.date) <= windowDays
  const pairs: Array<{ readonly out: Line; readonly into: Line }> = []
  for (const out of lines) {
    if (out.amountCents >= 0) continue
    const partners = lines.filter((into) => fits(out, into))
    if (partners.length !== 1) continue
    const into = partners[0]!
    if (lines.filter((other) => fits(other, into)).length !== 1) continue
    pairs.push({ out, into })
  }
  return pairs
}
