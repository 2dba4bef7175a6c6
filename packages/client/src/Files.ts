/**
 * The file helpers of the Promise client, without @ledger/api (whose `File` module brings the
 * whole contract and Effect with it): the same reading of envelopes and `Content-Disposition` as
 * `File.read` and `File.filenameOf`; test/sdk.test.ts downloads through both clients.
 */

/** A file's bytes with the name and media type it came with. */
export interface Download {
  readonly bytes: Uint8Array
  readonly filename: string
  readonly contentType: string
}

const stringField = (record: Readonly<Record<string, unknown>>, ...names: ReadonlyArray<string>): string | null => {
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

/** The file inside a JSON envelope (`{filename, content}` or `{filename, content_base64}`), or null. */
export const fromEnvelope = (body: unknown): Download | null => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null
  const record = body as Record<string, unknown>
  const filename = stringField(record, "filename", "file_name")
  if (filename === null) return null
  const contentType = stringField(record, "content_type", "media_type") ?? "application/octet-stream"
  const text = stringField(record, "content")
  if (text !== null) return { filename, contentType, bytes: new TextEncoder().encode(text) }
  const base64 = stringField(record, "content_base64")
  const bytes = base64 === null ? null : decodeBase64(base64)
  return bytes === null ? null : { filename, contentType, bytes }
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

/** The file of a successful raw answer, or of an envelope when the server answered JSON. */
export const fromAnswer = (
  id: string,
  answer: { readonly body: unknown; readonly headers: Readonly<Record<string, string>> }
): Download | null => {
  const contentType = answer.headers["content-type"] ?? "application/octet-stream"
  const filename = filenameOf(answer.headers["content-disposition"] ?? null) ?? id
  if (answer.body instanceof Uint8Array) return { bytes: answer.body, filename, contentType }
  if (typeof answer.body === "string") return { bytes: new TextEncoder().encode(answer.body), filename, contentType }
  return fromEnvelope(answer.body)
}
