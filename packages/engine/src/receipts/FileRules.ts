import { Effect, Result } from "effect"
import { Base64 } from "effect/encoding"
import { fileTypeFromBuffer } from "file-type"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { ApiError, Receipts } from "@ledger/api"

/**
 * What a receipt file is, from its bytes: the media type is sniffed by `file-type` (magic
 * numbers), never taken from the name; only PDF, JPEG, PNG and HEIC are receipts (spec 8.2), at
 * most 20 MB. A file's identity is the SHA-256 of its bytes: the same file twice is one receipt.
 */

export type MediaType = Receipts.Shared.UploadMediaType

const accepted: Readonly<Record<string, MediaType>> = {
  "application/pdf": "application/pdf",
  "image/jpeg": "image/jpeg",
  "image/png": "image/png",
  "image/heic": "image/heic",
  "image/heif": "image/heic"
}

/** The media type a file's bytes show, if it is one a receipt may be. */
export const sniff = (bytes: Uint8Array): Effect.Effect<MediaType | null> =>
  Effect.promise(() => fileTypeFromBuffer(bytes).catch(() => undefined)).pipe(
    Effect.map((type) => (type === undefined ? null : accepted[type.mime] ?? null))
  )

export const fingerprint = (bytes: Uint8Array): string => bytesToHex(sha256(bytes))

/**
 * The same SHA-256, through Web Crypto: where the platform hashes off the calling thread (Node's
 * does, in its thread pool), a 20 MB receipt no longer holds the event loop for the ~150 ms the
 * JavaScript hash takes (ADR 2321). Where there is no Web Crypto, the JavaScript hash.
 */
export const fingerprintAsync = (bytes: Uint8Array): Effect.Effect<string> =>
  globalThis.crypto?.subtle === undefined
    ? Effect.sync(() => fingerprint(bytes))
    : Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", bytes.buffer instanceof ArrayBuffer ? bytes as Uint8Array<ArrayBuffer> : new Uint8Array(bytes))).pipe(
      Effect.map((digest) => bytesToHex(new Uint8Array(digest)))
    )

/**
 * base64 (standard, padding optional, whitespace ignored) to bytes. Text that is not base64 is a
 * malformed field, like an empty one (the schema's minimum length): 400 `invalid_request`, not 422,
 * which is for well-formed bodies a rule refuses (DECISIONS "Errors").
 */
export const decodeBase64 = (text: string, path: ReadonlyArray<string>) => {
  const decoded = Base64.decode(text.replace(/\s+/gu, ""))
  return Result.isSuccess(decoded)
    ? Effect.succeed(decoded.success)
    : Effect.fail(ApiError.invalidRequest([{ path, message: "Not valid base64" }], "The content is not valid base64."))
}

/** The bytes of an upload, checked: not empty, at most 20 MB, a PDF, JPEG, PNG or HEIC by its bytes. */
export const checkFile = Effect.fn("FileRules.checkFile")(function*(bytes: Uint8Array) {
  const max = Receipts.Shared.limits.fileBytesMax
  if (bytes.byteLength > max) {
    return yield* Effect.fail(ApiError.fail("payload_too_large", `A receipt is at most ${max} bytes.`, { bytes_max: max }))
  }
  if (bytes.byteLength === 0) return yield* Effect.fail(ApiError.validationFailed("The file is empty.", [{ path: ["body", "content_base64"], message: "Empty" }]))
  const mediaType = yield* sniff(bytes)
  if (mediaType === null) {
    return yield* Effect.fail(ApiError.fail("unsupported_media_type", "A receipt is a PDF, JPEG, PNG or HEIC file; these bytes are none of them.", {
      accepted: ["application/pdf", "image/jpeg", "image/png", "image/heic"]
    }))
  }
  return { mediaType, sha256: yield* fingerprintAsync(bytes) }
})
