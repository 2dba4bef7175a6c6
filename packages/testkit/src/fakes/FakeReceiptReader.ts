import { Effect, Layer } from "effect"
import { ReaderFailure, type ReaderFields, ReceiptReader } from "@ledger/engine/ports"

/**
 * A receipt reader (OCR provider) a test scripts: `answer(fields)` sets what the next reads
 * return (every read until changed), `failNext(message)` makes the next read fail, and `reads`
 * lists what it was asked (media type, size, whether text came along).
 */
export interface FakeReceiptReader {
  readonly layer: Layer.Layer<ReceiptReader>
  readonly answer: (fields: ReaderFields) => void
  readonly failNext: (message?: string) => void
  readonly reads: ReadonlyArray<{ readonly mediaType: string; readonly sizeBytes: number; readonly hadText: boolean }>
}

export const make = (): FakeReceiptReader => {
  let fields: ReaderFields = {}
  let failure: string | null = null
  const reads: Array<{ mediaType: string; sizeBytes: number; hadText: boolean }> = []
  return {
    layer: Layer.succeed(ReceiptReader)(ReceiptReader.of({
      configured: true,
      name: "fake-reader",
      read: (input) =>
        Effect.suspend(() => {
          reads.push({ mediaType: input.mediaType, sizeBytes: input.bytes.byteLength, hadText: input.text !== null })
          if (failure !== null) {
            const message = failure
            failure = null
            return Effect.fail(new ReaderFailure({ message }))
          }
          return Effect.succeed(fields)
        })
    })),
    answer: (next) => {
      fields = next
    },
    failNext: (message = "the fake reader was told to fail") => {
      failure = message
    },
    reads
  }
}
