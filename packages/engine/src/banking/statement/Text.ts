import { UnreadableStatement } from "./Statement.ts"

/**
 * A statement file's characters. Files come as text, or as their bytes in base64 so that a file
 * in a legacy character set (Windows-1252, ISO-8859-1, Windows-1250) keeps its accents. Bytes
 * that are valid UTF-8 are read as UTF-8 whatever the file claims (banks often declare a charset
 * and write another); otherwise the charset the CSV profile names, else the one the file declares, is used, else
 * Windows-1252, the usual one of bank exports. WHATWG TextDecoder does the decoding: it runs on
 * Node, in browsers and on edge runtimes.
 */

const aliases: Record<string, string> = {
  "1252": "windows-1252",
  "cp1252": "windows-1252",
  "1250": "windows-1250",
  "cp1250": "windows-1250",
  "latin1": "iso-8859-1",
  "iso-8859-1": "iso-8859-1",
  "8859-1": "iso-8859-1",
  "iso8859-1": "iso-8859-1",
  "iso-8859-15": "iso-8859-15",
  "iso-8859-2": "iso-8859-2",
  "windows-1252": "windows-1252",
  "windows-1250": "windows-1250",
  "utf-8": "utf-8",
  "utf8": "utf-8",
  "usascii": "windows-1252",
  "us-ascii": "windows-1252",
  "none": "windows-1252"
}

/** The charset a file declares in its OFX header (CHARSET:1252) or XML declaration (encoding="..."). */
export const declaredCharset = (head: string): string | undefined => {
  const xml = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/iu.exec(head)
  if (xml !== null) return aliases[xml[1]!.toLowerCase()]
  const charset = /^\s*CHARSET:\s*([^\r\n]+)/imu.exec(head)
  if (charset !== null) return aliases[charset[1]!.trim().toLowerCase()]
  return undefined
}

const base64ToBytes = (content: string): Uint8Array => {
  const clean = content.replace(/[\s]/gu, "")
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/u.test(clean)) {
    throw new UnreadableStatement("content_encoding is base64 but the content is not base64", null)
  }
  const binary = atob(clean.replace(/-/gu, "+").replace(/_/gu, "/"))
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/** The file's text from the request's content. */
export const decode = (content: string, encoding: "text" | "base64", fallbackCharset?: string): string => {
  const text = encoding === "text" ? content : decodeBytes(base64ToBytes(content), fallbackCharset)
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

export const decodeBytes = (bytes: Uint8Array, fallbackCharset?: string): string => {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2))
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 2_048))
    const charset = (fallbackCharset === undefined ? undefined : aliases[fallbackCharset]) ?? declaredCharset(head) ??
      "windows-1252"
    return new TextDecoder(charset === "utf-8" ? "windows-1252" : charset).decode(bytes)
  }
}
