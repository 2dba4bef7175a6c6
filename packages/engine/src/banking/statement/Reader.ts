import type { Banking } from "@ledger/api"
import * as Csv from "./Csv.ts"
import * as Ofx from "./Ofx.ts"
import { type StatementLine, type StatementReader, UnreadableStatement } from "./Statement.ts"
import * as Text from "./Text.ts"

/**
 * Opens a statement file for import: decodes it, picks the reader for its format and, for OFX
 * files holding several accounts, the statements of the bank account being imported (matched by
 * its mask, the last digits of the account number).
 */

export interface Source {
  readonly format: "ofx" | "qfx" | "csv"
  readonly content: string
  readonly contentEncoding: "text" | "base64"
  readonly profile: Banking.Records.CsvProfile | null
  /** The bank account's mask, when it has one. */
  readonly mask: string | null
}

export class AmbiguousAccount extends Error {
  constructor(readonly accounts: ReadonlyArray<string>) {
    super("the file holds statements of several accounts")
  }
}

const digits = (text: string): string => text.replace(/\D/gu, "")

/** Whether an OFX account id is the one a mask names (its last characters, digits compared when both have some). */
export const maskMatches = (accountId: string, mask: string): boolean => {
  const account = accountId.trim().toLowerCase()
  const wanted = mask.trim().toLowerCase()
  if (account.endsWith(wanted)) return true
  const accountDigits = digits(account)
  const maskDigits = digits(wanted)
  return maskDigits.length > 0 && accountDigits.endsWith(maskDigits)
}

export const open = (source: Source): StatementReader => {
  const text = Text.decode(source.content, source.contentEncoding, source.profile?.encoding)
  if (source.format === "csv") return Csv.read(text, source.profile ?? {})
  const accounts = Ofx.accountIds(text)
  let wanted: Set<string> | null = null
  if (accounts.length > 1) {
    const chosen = source.mask === null ? [] : accounts.filter((account) => maskMatches(account, source.mask!))
    if (chosen.length === 0) throw new AmbiguousAccount(accounts)
    wanted = new Set(chosen)
  }
  const reader = Ofx.read(text)
  const next = (): StatementLine | null => {
    for (;;) {
      const line = reader.next()
      if (line === null || wanted === null) return line
      const statement = reader.statements()[line.statement]
      if (statement?.accountId !== null && statement !== undefined && wanted.has(statement.accountId)) return line
    }
  }
  return {
    next,
    statements: () =>
      reader.statements().filter((statement) => wanted === null || (statement.accountId !== null && wanted.has(statement.accountId)))
  }
}

export { UnreadableStatement }
