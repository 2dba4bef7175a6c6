import { File, type Operation } from "@ledger/api"
import type * as Call from "./Call.ts"

/**
 * Files as files in the SDK (docs/decisions/0015-files-are-files.md): `download` asks for an
 * operation's file itself and answers its bytes and name; `fromEnvelope` reads the JSON envelope a
 * method (or an MCP tool) answers, e.g. with `format: "base64"`.
 */

/** A file's bytes with the name and media type it came with. */
export interface Download {
  readonly bytes: Uint8Array
  readonly filename: string
  readonly contentType: string
}

/** The file inside a JSON envelope (`{filename, content}` or `{filename, content_base64}`), or null. */
export const fromEnvelope = (body: unknown): Download | null => {
  const file = File.read(body)
  return file === null ? null : { bytes: file.bytes, filename: file.filename, contentType: file.mediaType ?? "application/octet-stream" }
}

/** The `Accept` of a download: the operation's file media types, JSON for refusals. */
export const acceptOf = (files: File.Files): string =>
  [...File.mediaTypesOf(files).map(File.essence), "application/json;q=0.1"].join(", ")

/** The file of a successful raw answer, or of an envelope when the server answered JSON. */
export const fromResponse = (operation: Operation.Any, response: Call.Response): Download | null => {
  const body = response.body
  const contentType = response.headers["content-type"] ?? "application/octet-stream"
  const filename = File.filenameOf(response.headers["content-disposition"] ?? null) ?? `${operation.id}`
  if (body instanceof Uint8Array) return { bytes: body, filename, contentType }
  if (typeof body === "string") return { bytes: new TextEncoder().encode(body), filename, contentType }
  return fromEnvelope(body)
}
