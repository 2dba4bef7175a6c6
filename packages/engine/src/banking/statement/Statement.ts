/**
 * What every statement reader (OFX, QFX, CSV) yields: one line per bank transaction, in file
 * order, plus what the file says about its statements. Readers are pure and incremental: they
 * pull from the file's text as the importer asks for the next line, so a large file is never
 * turned into a second large structure in memory.
 */

/** One transaction as the statement states it. Amounts are signed cents: positive is money in. */
export interface StatementLine {
  /** The file line the transaction starts on (1-based), for error messages. */
  readonly line: number
  readonly date: string
  readonly amountCents: number
  readonly payee: string | null
  readonly memo: string | null
  readonly checkNumber: string | null
  /** The statement's transaction id (OFX FITID, a CSV id column); null when it has none. */
  readonly statementId: string | null
  /** Which statement of the file it belongs to (OFX files may hold several). */
  readonly statement: number
}

export interface StatementInfo {
  readonly index: number
  readonly accountId: string | null
  readonly accountType: string | null
  currency: string | null
  transactions: number
  ledgerBalanceCents: number | null
  ledgerBalanceDate: string | null
}

/** Why a file cannot be read: the line it stopped at and the reason, for a 422 a person can act on. */
export class UnreadableStatement extends Error {
  constructor(readonly reason: string, readonly line: number | null) {
    super(line === null ? reason : `line ${line}: ${reason}`)
  }
}

/** A reader: pull the next transaction (or null at the end); the statements seen so far. */
export interface StatementReader {
  readonly next: () => StatementLine | null
  readonly statements: () => ReadonlyArray<StatementInfo>
}
