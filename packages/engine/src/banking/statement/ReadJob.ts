import { job } from "../../kernel/offload/HeavyWork.ts"
import * as Reader from "./Reader.ts"
import { type StatementInfo, type StatementLine, type StatementReader, UnreadableStatement } from "./Statement.ts"

/**
 * A statement file read through in one job (kernel/offload/HeavyWork.ts, ADR 2320): a worker
 * thread when the server has a pool, so a file of 200,000 lines no longer holds the event loop.
 * The answer is plain data: the lines (at most `linesMax`), the statements, and why reading
 * stopped early, if it did, which the importer turns back into the reader's own errors at the
 * point the file stopped; so an import reads the same lines and fails at the same line either way.
 */

export interface Input {
  readonly source: Reader.Source
  /** Lines to read at most (the limit + 1, so a file past the limit is seen to be). */
  readonly linesMax: number
  /** Count only: no lines in the answer (the dry pass an import makes before writing). */
  readonly countOnly: boolean
}

export type Stop =
  | { readonly kind: "unreadable"; readonly reason: string; readonly line: number | null }
  | { readonly kind: "ambiguous"; readonly accounts: ReadonlyArray<string> }
  | { readonly kind: "error"; readonly message: string }

export interface Loaded {
  /** Lines read (empty when counting only). */
  readonly lines: ReadonlyArray<StatementLine>
  readonly read: number
  /** The file line of the last transaction read, for the refusal of a file past the limit. */
  readonly lastLine: number | null
  readonly statements: ReadonlyArray<StatementInfo>
  /** Why reading stopped before the end; `opening`: the file could not be opened at all. */
  readonly stop: Stop | null
  readonly opening: boolean
}

const stopOf = (error: unknown): Stop =>
  error instanceof UnreadableStatement
    ? { kind: "unreadable", reason: error.reason, line: error.line }
    : error instanceof Reader.AmbiguousAccount
    ? { kind: "ambiguous", accounts: error.accounts }
    : { kind: "error", message: error instanceof Error ? error.message : String(error) }

/** The error a reader threw, from its data. */
export const errorOf = (stop: Stop): Error =>
  stop.kind === "unreadable"
    ? new UnreadableStatement(stop.reason, stop.line)
    : stop.kind === "ambiguous"
    ? new Reader.AmbiguousAccount(stop.accounts)
    : new Error(stop.message)

export const load = (input: Input): Loaded => {
  let reader: StatementReader
  try {
    reader = Reader.open(input.source)
  } catch (error) {
    return { lines: [], read: 0, lastLine: null, statements: [], stop: stopOf(error), opening: true }
  }
  const lines: Array<StatementLine> = []
  let read = 0
  let lastLine: number | null = null
  let stop: Stop | null = null
  try {
    while (read < input.linesMax) {
      const line = reader.next()
      if (line === null) break
      read++
      lastLine = line.line
      if (!input.countOnly) lines.push(line)
    }
  } catch (error) {
    stop = stopOf(error)
  }
  return { lines, read, lastLine, statements: reader.statements().map((statement) => ({ ...statement })), stop, opening: false }
}

export const readStatement = job("statement.read", load)

/** A reader over a loaded file: its lines, then the error it stopped at (if any). */
export const replay = (loaded: Loaded): StatementReader => {
  let at = 0
  return {
    next: () => {
      if (at < loaded.lines.length) return loaded.lines[at++]!
      if (loaded.stop !== null) throw errorOf(loaded.stop)
      return null
    },
    statements: () => loaded.statements
  }
}
