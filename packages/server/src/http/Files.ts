import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { File } from "@ledger/api"
import type { Outcome } from "@ledger/engine"

/**
 * Files are files over HTTP (docs/decisions/0015-files-are-files.md): the JSON envelope a handler
 * answered for a file the request chose is sent as the file's own bytes, with its media type.
 */

/**
 * Headers of every file answer: never sniffed or run by a browser (a receipt may be HTML, a logo
 * SVG), saved rather than shown, and not kept by shared caches (it is a company's books).
 */
const fileHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  "cache-control": "private, no-store"
} as const

/** A text file's media type names its charset: the envelope's text is UTF-8. */
const withCharset = (mediaType: string, text: boolean) =>
  text && /^text\//i.test(mediaType) && !/;\s*charset=/i.test(mediaType) ? `${mediaType}; charset=utf-8` : mediaType

/** The next page of a paged file (the general ledger's CSV): the same request with the cursor. */
const nextLink = (request: HttpServerRequest.HttpServerRequest, body: unknown): Record<string, string> => {
  const cursor = (body as { readonly next_cursor?: unknown }).next_cursor
  if (typeof cursor !== "string" || cursor === "") return {}
  const url = new URL(request.url, "http://localhost")
  url.searchParams.set("cursor", cursor)
  return { link: `<${url.pathname}${url.search}>; rel="next"` }
}

/**
 * The file of a successful answer, or null when the answer is a refusal or not an envelope (it
 * then goes out as JSON, like any other).
 */
export const render = (
  request: HttpServerRequest.HttpServerRequest,
  files: File.Files,
  format: string,
  outcome: Outcome
): HttpServerResponse.HttpServerResponse | null => {
  const file = outcome.status >= 200 && outcome.status < 300 ? File.read(outcome.body) : null
  if (file === null) return null
  const contentType = withCharset(file.mediaType ?? files.formats[format]?.[0] ?? "application/octet-stream", file.text)
  return HttpServerResponse.uint8Array(file.bytes, {
    status: outcome.status,
    contentType,
    headers: {
      ...outcome.headers,
      ...fileHeaders,
      ...nextLink(request, outcome.body),
      "content-type": contentType,
      "content-disposition": File.contentDisposition(file.filename)
    }
  })
}
