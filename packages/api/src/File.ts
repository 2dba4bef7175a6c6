import { Schema } from "effect"

/**
 * Files are files (docs/decisions/0015-files-are-files.md): an operation that can answer a file
 * (a report's CSV, a document's PDF, a receipt as it was received) declares which `format` values
 * are files and their media types. Every transport runs the same handler, which answers the file in
 * a JSON envelope (MCP and JSON clients get that envelope); HTTP unwraps the envelope and sends the
 * bytes with their media type when the request chose a file.
 */

/** The media types the contract names. */
export const mediaTypes = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  pdf: "application/pdf",
  png: "image/png",
  jpeg: "image/jpeg",
  heic: "image/heic",
  svg: "image/svg+xml",
  html: "text/html; charset=utf-8",
  text: "text/plain; charset=utf-8"
} as const

/** What an operation declares about the files it answers. */
export interface Files {
  /**
   * Each `format` value that answers a file, with the media types the file may have: the first is
   * the usual one; the exact one comes with the answer (a receipt is a PDF or a JPEG).
   */
  readonly formats: Readonly<Record<string, ReadonlyArray<string>>>
  /**
   * The file a request without `format` gets: a key of `formats`. Absent when such a request gets
   * JSON data (a report), and then only `format` or `Accept` asks for the file.
   */
  readonly default?: string
}

/** Declares an operation's files (a helper for the literal types). */
export const files = <const F extends Files>(files: F): F => files

/** The usual declaration of a CSV report: `format=csv` is a CSV file; JSON data by default. */
export const csvReport = files({ formats: { csv: [mediaTypes.csv] } })

/** The usual declaration of a PDF endpoint: `format=pdf` (the default) is the PDF, `base64` the envelope. */
export const pdfDocument = files({ formats: { pdf: [mediaTypes.pdf] }, default: "pdf" })

/**
 * The one JSON envelope of a file. Every file operation answers (over MCP, to JSON clients, and
 * with `format=base64` or `format=json`) a specialisation of it: text in `content` or bytes in
 * `content_base64`. Receipts and the logo, older than this schema, name the filename `file_name`
 * and the media type `media_type`; readers accept both (see `read`).
 */
export const Envelope = Schema.Struct({
  format: Schema.optionalKey(Schema.String).annotate({ description: "The format the file was asked in (`csv`, `pdf`)." }),
  filename: Schema.String.annotate({ description: "A suggested file name." }),
  content_type: Schema.optionalKey(Schema.String).annotate({ description: "The file's media type." }),
  size_bytes: Schema.optionalKey(Schema.Int).annotate({ description: "The file's length in bytes." }),
  content: Schema.optionalKey(Schema.String).annotate({ description: "A text file's text (UTF-8)." }),
  content_base64: Schema.optionalKey(Schema.String).annotate({ description: "A binary file's bytes, base64." })
}).annotate({ identifier: "FileEnvelope" })
export type Envelope = typeof Envelope.Type

/** A CSV file as JSON: `{format: "csv", filename, content}` (the reports' envelope since ADR 0204). */
export const CsvEnvelope = Schema.Struct({
  format: Schema.Literal("csv"),
  filename: Schema.String.annotate({ description: "A suggested file name, e.g. `trial-balance-2026-03-15.csv`." }),
  content: Schema.String.annotate({ description: "The CSV text: a header row, then the rows; CRLF line ends." })
}).annotate({ identifier: "CsvFile" })

/** A PDF as JSON: `{filename, content_type, size_bytes, content_base64}` (ADR 0306). */
export const PdfEnvelope = Schema.Struct({
  filename: Schema.String.annotate({ description: "A suggested file name." }),
  content_type: Schema.Literal("application/pdf"),
  size_bytes: Schema.Int,
  content_base64: Schema.String.annotate({ description: "The PDF's bytes, base64." })
}).annotate({ identifier: "PdfFile" })

/** `?format=` of a PDF endpoint: `pdf` (the default) the file, `base64` the JSON envelope. */
export const PdfFormat = Schema.optionalKey(Schema.Literals(["pdf", "base64"])).annotate({
  description: "`pdf` (default): the PDF file. `base64`: JSON `{filename, content_type, size_bytes, content_base64}`."
})

/** A file read out of its envelope. */
export interface Content {
  readonly filename: string
  /** The envelope's media type, or null when it names none (the declaration says). */
  readonly mediaType: string | null
  readonly bytes: Uint8Array
  /** True when the envelope carried text (`content`), false for base64. */
  readonly text: boolean
}

const stringField = (record: Record<string, unknown>, ...names: ReadonlyArray<string>): string | null => {
  for (const name of names) {
    const value = record[name]
    if (typeof value === "string") return value
  }
  return null
}

const decodeBase64 = (base64: string): Uint8Array | null => {
  try {
    const binary = atob(base64)
    const bytes = new Uint8Array(binary.length)
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    return bytes
  } catch {
    return null
  }
}

/** The file inside an envelope, or null when the body is not one. */
export const read = (body: unknown): Content | null => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null
  const record = body as Record<string, unknown>
  const filename = stringField(record, "filename", "file_name")
  if (filename === null) return null
  const mediaType = stringField(record, "content_type", "media_type")
  const text = stringField(record, "content")
  if (text !== null) return { filename, mediaType, bytes: new TextEncoder().encode(text), text: true }
  const base64 = stringField(record, "content_base64")
  const bytes = base64 === null ? null : decodeBase64(base64)
  return bytes === null ? null : { filename, mediaType, bytes, text: false }
}

/** `text/csv; charset=utf-8` -> `text/csv`. */
export const essence = (mediaType: string): string => mediaType.split(";")[0]!.trim().toLowerCase()

interface Preference {
  readonly type: string
  readonly q: number
  readonly order: number
}

/** An `Accept` header's media ranges, most wanted first (q=0 left out). At most 32 are read. */
export const parseAccept = (accept: string | null): ReadonlyArray<Preference> => {
  if (accept === null) return []
  const out: Array<Preference> = []
  for (const [order, part] of accept.split(",").slice(0, 32).entries()) {
    const [range, ...params] = part.split(";")
    const type = (range ?? "").trim().toLowerCase()
    if (type === "") continue
    let q = 1
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)
      if (match !== null) q = Number(match[1])
    }
    if (Number.isFinite(q) && q > 0) out.push({ type, q, order })
  }
  return out.sort((a, b) => b.q - a.q || a.order - b.order)
}

/** How a request's answer goes out, decided by `format` and `Accept`. */
export interface Choice {
  /** The file format chosen (a key of `formats`), or null: the answer is JSON data. */
  readonly format: string | null
  /** Set this `format` in the query before running the operation (chosen by `Accept` alone). */
  readonly inject: string | null
  /** Send the file's bytes; false sends the JSON envelope. */
  readonly raw: boolean
}

/**
 * The choice for one request. `format` names the file when given; without it, `Accept` naming one
 * of the file media types chooses that file, else the declared default. A chosen file goes out as
 * itself unless `Accept` names `application/json` and none of that file's media types (a JSON
 * client, such as the SDK, keeps the envelope).
 */
export const choose = (files: Files, format: unknown, accept: string | null): Choice => {
  const preferences = parseAccept(accept)
  const named = (types: ReadonlyArray<string>) => preferences.some((preference) => types.some((type) => essence(type) === preference.type))
  let chosen: string | null = null
  let inject: string | null = null
  if (typeof format === "string" && format !== "") {
    chosen = Object.hasOwn(files.formats, format) ? format : null
  } else {
    for (const preference of preferences) {
      const match = Object.entries(files.formats).find(([, types]) => types.some((type) => essence(type) === preference.type))
      if (match !== undefined) {
        chosen = match[0]
        inject = match[0] === files.default ? null : match[0]
        break
      }
    }
    chosen ??= files.default ?? null
  }
  if (chosen === null) return { format: null, inject: null, raw: false }
  const wantsJson = preferences.some((preference) => preference.type === "application/json")
  return { format: chosen, inject, raw: !(wantsJson && !named(files.formats[chosen]!)) }
}

/** Every media type an operation's files may have (for OpenAPI and `Accept`). */
export const mediaTypesOf = (files: Files): ReadonlyArray<string> =>
  Array.from(new Set(Object.values(files.formats).flat()))

/**
 * A filename safe in a quoted header value: ASCII letters, digits, `.`, `-`, `_` and spaces;
 * anything else becomes `_`. Never empty, never starting with a dot, at most 150 characters.
 */
export const asciiFilename = (filename: string): string => {
  const base = filename.replace(/[^A-Za-z0-9._ -]/g, "_").replace(/^[.\s]+/, "").trim().slice(0, 150)
  return base === "" ? "download" : base
}

/** RFC 5987 `ext-value` characters: everything but attr-char is percent-encoded. */
const encode5987 = (value: string): string =>
  encodeURIComponent(value).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * `Content-Disposition: attachment` with the ASCII fallback and, when the name has other
 * characters, the exact name as `filename*` (RFC 6266 and 5987). Control characters, path
 * separators and quotes never reach the header.
 */
export const contentDisposition = (filename: string): string => {
  // eslint-disable-next-line no-control-regex
  // Lone surrogates (a JSON string may hold one; cutting at 200 may make one) cannot be encoded.
  const cleaned = filename.replace(/[\u0000-\u001f\u007f"\\/]/g, "_").replace(/^[.\s]+/, "").slice(0, 200)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "_") || "download"
  const ascii = asciiFilename(cleaned)
  return ascii === cleaned
    ? `attachment; filename="${ascii}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encode5987(cleaned)}`
}

/** The filename in a `Content-Disposition` header (prefers `filename*`), or null. */
export const filenameOf = (disposition: string | null): string | null => {
  if (disposition === null) return null
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition)
  return plain === null ? null : plain[1]!.trim()
}
