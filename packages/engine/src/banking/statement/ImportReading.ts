import { Effect } from "effect"
import { ApiError, Limits } from "@ledger/api"
import * as HeavyWork from "../../kernel/offload/HeavyWork.ts"
import * as Secret from "../../kernel/Secret.ts"
import * as ReadJob from "./ReadJob.ts"
import * as Reader from "./Reader.ts"
import type { StatementLine, StatementReader } from "./Statement.ts"

/**
 * How a statement import reads its file (banking/Imports.ts): a chunk of lines at a time with a
 * yield to the event loop between chunks, never past the line limit + 1st transaction, a reading
 * failure as the API's 422 (docs/decisions/0407, 0408).
 */

/** A reading failure as the refusal the API answers with. */
export const unreadable = (error: unknown): ApiError.LedgerError => {
  if (error instanceof Reader.UnreadableStatement) {
    return ApiError.fail("statement_unreadable", `The file cannot be read: ${error.message}.`, {
      line: error.line,
      reason: error.reason
    })
  }
  if (error instanceof Reader.AmbiguousAccount) {
    return ApiError.fail(
      "statement_account_ambiguous",
      "The file holds statements of several accounts: set the bank account's mask to the last digits of the one to import.",
      { accounts: error.accounts }
    )
  }
  return ApiError.fail("statement_unreadable", `The file cannot be read: ${error instanceof Error ? error.message : String(error)}.`, {
    line: null,
    reason: String(error)
  })
}

/** A job past its time or memory is a file that cannot be read (422); no worker free, 503. */
const tooHeavy = (refused: HeavyWork.HeavyWorkRefused) =>
  HeavyWork.refusal(refused, (reason) => ApiError.fail("statement_unreadable", `The file cannot be read: ${reason}.`, { line: null, reason }))

/** The file read through, up to the limit + 1st transaction, off the request's thread when the server has a pool (ADR 2320). */
const load = (source: Reader.Source, countOnly: boolean) =>
  HeavyWork.run(ReadJob.readStatement, { source, linesMax: Limits.statementLinesMax + 1, countOnly }).pipe(Effect.mapError(tooHeavy))

/**
 * Opens the file's reader over its lines read in one job; a file that cannot be opened is the
 * 422, and a line that cannot be read is the 422 when the importer reaches it, as before.
 */
export const open = (source: Reader.Source) =>
  Effect.flatMap(load(source, false), (loaded) =>
    loaded.opening && loaded.stop !== null ? Effect.fail(unreadable(ReadJob.errorOf(loaded.stop))) : Effect.succeed(ReadJob.replay(loaded)))

/** Up to `count` lines from the reader; a reading failure becomes the 422. */
const pull = (reader: StatementReader, count: number) =>
  Effect.try({
    try: () => {
      const lines: Array<StatementLine> = []
      while (lines.length < count) {
        const line = reader.next()
        if (line === null) break
        lines.push(line)
      }
      return lines
    },
    catch: unreadable
  })

/**
 * Lines parsed between two yields to the event loop. Parsing runs at 15 to 55 microseconds a
 * line, so a chunk of 250 holds the loop for about 4 to 15 ms, where a write batch of 2,000
 * (Limits.importBatchLinesMax) held it for up to half a second: other requests are answered
 * between chunks (issue 19 item 8, docs/decisions/0407).
 */
export const importChunkLines = 250

/**
 * Up to `count` lines (a batch), read `importChunkLines` at a time with a yield between chunks,
 * and never past the limit + 1st line of the file (`readBefore` lines were read before).
 */
export const pullBatch = (reader: StatementReader, count: number, readBefore: number) =>
  Effect.gen(function*() {
    const lines: Array<StatementLine> = []
    for (;;) {
      const wanted = Math.min(importChunkLines, count - lines.length, Limits.statementLinesMax + 1 - readBefore - lines.length)
      if (wanted <= 0) return lines
      const chunk = yield* pull(reader, wanted)
      for (const line of chunk) lines.push(line)
      if (chunk.length < wanted) return lines
      yield* Effect.yieldNow
    }
  })

export const tooManyLines = (line: number, read: number) =>
  ApiError.fail("statement_unreadable", `The file holds more than ${Limits.statementLinesMax} transactions: split it.`, {
    line,
    reason: "too many transactions",
    lines_read: read
  })

const occurrences = (text: string, pattern: RegExp): number => {
  let count = 0
  pattern.lastIndex = 0
  while (pattern.exec(text) !== null) count++
  return count
}

/** indexOf rather than a regular expression: four times faster over a file's worth of text. */
const characters = (text: string, character: string): number => {
  let count = 0
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++
  return count
}

/**
 * The most transactions the text can hold, counted without parsing or copying it: its line breaks
 * for CSV (LF, or CR for files that use CR alone), its `<STMTTRN>` tags for OFX. Only a file whose
 * bound passes the limit is counted for real before a dry run. (A file in UTF-16 may show no tag:
 * the reading loop's own check still refuses it.)
 */
export const linesBound = (format: "ofx" | "qfx" | "csv", text: string): number =>
  format === "csv"
    ? Math.max(characters(text, "\n"), characters(text, "\r")) + 1
    : occurrences(text, /<stmttrn>/giu)

/**
 * The file read through once without writing, in one job: its count of transactions, or the 422
 * of the first line that cannot be read, or the refusal of a file past Limits.statementLinesMax
 * as the reader passes the limit (so a file of any length is read at most to its limit + 1st
 * transaction). An import that commits in batches reads its file this way first, so a file that
 * cannot be read is refused before a line of it is written (docs/decisions/0408).
 */
export const countTransactions = (source: Reader.Source) =>
  Effect.gen(function*() {
    const loaded = yield* load(source, true)
    if (loaded.read > Limits.statementLinesMax) return yield* Effect.fail(tooManyLines(loaded.lastLine ?? 0, loaded.read))
    if (loaded.stop !== null) return yield* Effect.fail(unreadable(ReadJob.errorOf(loaded.stop)))
    return loaded.read
  })

/** Characters of the file hashed between two yields: about a millisecond or two of SHA-256 each. */
const digestChunkCharacters = 262_144

/**
 * A SHA-256 of the file's text, a slice at a time with yields between slices (a 64 MiB file
 * hashed at once would hold the event loop for a quarter of a second or more): the SHA-256 of the
 * slices' digests in order.
 */
export const contentDigest = (content: string) =>
  Effect.gen(function*() {
    const digests: Array<string> = []
    for (let at = 0; at < content.length; at += digestChunkCharacters) {
      digests.push(Secret.sha256Hex(content.slice(at, at + digestChunkCharacters)))
      yield* Effect.yieldNow
    }
    return Secret.sha256Hex(`${content.length}:${digests.join("")}`)
  })
