import { Effect, Layer, Logger } from "effect"

/**
 * How `ledger serve` writes its log lines (LEDGER_LOG_FORMAT): one line per entry, `text` as logfmt
 * (`timestamp=… level=INFO fiber=#12 message=request method=GET route=/v1/accounts …`) and `json` as
 * one JSON object, both to stdout, gathered for up to `windowMs` and written together.
 *
 * Why (issue 43, ADR 2420): the access log writes a line per request. Written as Effect's default
 * pretty logger does, each line was formatted by `util.inspect` over several lines and written to
 * stdout on its own, a system call per request (stdout to a pipe or a file is written
 * synchronously); that was about a fifth of the CPU of a balances read (docs/profiles/). Gathered,
 * one write carries every line of the window. A process killed outright loses at most the last
 * window's lines; a stop writes them (the batching logger flushes when its scope closes).
 */
export const windowMs = 20

/** Lines in one write at most: a window with more is written in several (each write's size bounded). */
export const linesPerWriteMax = 1_000

const writeLines = (lines: ReadonlyArray<string>) =>
  Effect.sync(() => {
    for (let start = 0; start < lines.length; start += linesPerWriteMax) {
      process.stdout.write(`${lines.slice(start, start + linesPerWriteMax).join("\n")}\n`)
    }
  })

export const layer = (format: "text" | "json"): Layer.Layer<never> =>
  Logger.layer([
    Logger.batched(format === "json" ? Logger.formatJson : Logger.formatLogFmt, { window: `${windowMs} millis`, flush: writeLines })
  ])
