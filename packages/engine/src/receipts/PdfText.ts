import { Effect } from "effect"
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from "pdf-lib"
import { Limits } from "@ledger/api"
import * as HeavyWork from "../kernel/offload/HeavyWork.ts"
import { inflateBounded } from "./PdfInflate.ts"

/**
 * The text of a PDF, read in the engine with pdf-lib (pure JavaScript): each page's content
 * streams are decoded and their text operators (Tj, TJ, ', ") read, through each font's
 * ToUnicode map when it has one (two-byte codes for Identity fonts), else as Latin-1. A new line
 * starts where the text moves down the page. This is the honest part a provider is not needed
 * for; scanned PDFs (images only) have no text and answer null. ADR 1202.
 *
 * The work is bounded by what is decompressed, not by the file's size: a 105 KB file of one
 * deflated 100 MB stream shown on 50 pages held the whole server for 77 s. Each stream is decoded
 * once (a page that reuses it reuses the bytes), decoding stops as soon as the file's budget
 * (Limits.receiptPdfContentBytesMax) is passed, and reading stops there. The receipt is still
 * stored: its text is what was read before the cap (often none), as for a scan, so the file is
 * never lost and its fields can be entered by hand; a refusal would drop a receipt that may be real.
 */

const pagesMax = 50
const charactersMax = 100_000

type ToUnicode = { readonly map: Map<number, string>; readonly bytes: 1 | 2 }

const hexBytes = (hex: string): Array<number> => {
  const clean = hex.replace(/[^0-9a-f]/giu, "")
  const padded = clean.length % 2 === 1 ? `${clean}0` : clean
  return (padded.match(/../gu) ?? []).map((pair) => Number.parseInt(pair, 16))
}
const utf16 = (hex: string): string => {
  const bytes = hexBytes(hex)
  const units: Array<number> = []
  for (let index = 0; index + 1 < bytes.length; index += 2) units.push((bytes[index]! << 8) | bytes[index + 1]!)
  return String.fromCharCode(...units)
}

/** A ToUnicode CMap's bfchar and bfrange entries. */
export const parseCMap = (text: string): ToUnicode => {
  const map = new Map<number, string>()
  let bytes: 1 | 2 = 1
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/gu)) {
    for (const pair of block[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]*)>/giu)) {
      if (pair[1]!.length >= 4) bytes = 2
      map.set(Number.parseInt(pair[1]!, 16), utf16(pair[2]!))
    }
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/gu)) {
    for (const range of block[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(<[0-9a-f]*>|\[[^\]]*\])/giu)) {
      if (range[1]!.length >= 4) bytes = 2
      const low = Number.parseInt(range[1]!, 16)
      const high = Math.min(Number.parseInt(range[2]!, 16), low + 65_535)
      const target = range[3]!
      if (target.startsWith("[")) {
        const items = [...target.matchAll(/<([0-9a-f]*)>/giu)].map((item) => utf16(item[1]!))
        items.forEach((item, index) => map.set(low + index, item))
      } else {
        const start = hexBytes(target.slice(1, -1))
        for (let code = low; code <= high; code++) {
          const units = [...start]
          const add = code - low
          units[units.length - 1] = (units.at(-1) ?? 0) + add
          map.set(code, utf16(units.map((unit) => unit.toString(16).padStart(2, "0")).join("")))
        }
      }
    }
  }
  return { map, bytes }
}

/** One file's reading: the bytes it may still take, and each stream it has decoded (null: unreadable). */
interface Budget {
  readonly pdf: PDFDocument
  readonly decoded: Map<PDFRawStream, Uint8Array | null | "over">
  /** Decoded bytes handed to the text reader, a shared stream counted at each use. */
  used: number
  truncated: boolean
}

type Step = { readonly name: PDFName; readonly params: PDFObject | undefined }

const filtersOf = (stream: PDFRawStream): Array<Step> => {
  const filter = stream.dict.lookup(PDFName.of("Filter"))
  const params = stream.dict.lookup(PDFName.of("DecodeParms"))
  if (filter === undefined) return []
  if (filter instanceof PDFName) return [{ name: filter, params }]
  if (!(filter instanceof PDFArray)) throw new Error("A stream's Filter is a name or an array.")
  return filter.asArray().map((_, index) => ({ name: filter.lookup(index, PDFName), params: params instanceof PDFArray ? params.lookup(index) : undefined }))
}

/**
 * One filter, stopping once more than `limit` bytes come out. Flate goes through fflate's
 * streaming inflater fed a kilobyte at a time: pdf-lib's own inflater decodes a whole deflate
 * block at a time, and one hand-made block can hold the whole bomb, while a kilobyte of input
 * inflates to at most about a megabyte. pdf-lib's other decoders (LZW, run length, ASCII hex and
 * 85) work in small blocks, so asking for `limit + 1` bytes stops them near the limit.
 */
const decodeStep = (pdf: PDFDocument, bytes: Uint8Array, step: Step, limit: number): Uint8Array | "over" => {
  if (step.name === PDFName.of("FlateDecode")) return inflateBounded(bytes, limit)
  const dict = pdf.context.obj(step.params === undefined ? { Filter: step.name } : { Filter: step.name, DecodeParms: step.params })
  const out = decodePDFRawStream(PDFRawStream.of(dict, bytes)).getBytes(limit + 1)
  return out.length > limit ? "over" : new Uint8Array(out.buffer, out.byteOffset, out.length)
}

const decodeBounded = (pdf: PDFDocument, stream: PDFRawStream, limit: number): Uint8Array | null | "over" => {
  try {
    let bytes: Uint8Array = stream.contents
    for (const step of filtersOf(stream)) {
      const out = decodeStep(pdf, bytes, step, limit)
      if (out === "over") return "over"
      bytes = out
    }
    return bytes.length > limit ? "over" : bytes
  } catch {
    return null
  }
}

/** A stream's decoded text, within the file's budget; null when unreadable or past it. */
const streamText = (budget: Budget, object: PDFObject | undefined): string | null => {
  if (!(object instanceof PDFRawStream) || budget.truncated) return null
  const remaining = Limits.receiptPdfContentBytesMax - budget.used
  let bytes = budget.decoded.get(object)
  if (bytes === undefined) {
    bytes = decodeBounded(budget.pdf, object, remaining)
    budget.decoded.set(object, bytes)
  }
  if (bytes === "over" || (bytes !== null && bytes.length > remaining)) {
    budget.truncated = true
    return null
  }
  if (bytes === null) return null
  budget.used += bytes.length
  return new TextDecoder("latin1").decode(bytes)
}

const fontMaps = (budget: Budget, resources: PDFDict | undefined): Map<string, ToUnicode> => {
  const pdf = budget.pdf
  const maps = new Map<string, ToUnicode>()
  const fonts = resources?.lookupMaybe(PDFName.of("Font"), PDFDict)
  if (fonts === undefined) return maps
  for (const [name, ref] of fonts.entries()) {
    const font = pdf.context.lookup(ref)
    if (!(font instanceof PDFDict)) continue
    const cmap = streamText(budget, pdf.context.lookup(font.get(PDFName.of("ToUnicode"))))
    if (cmap !== null) maps.set(name.asString().replace(/^\//u, ""), parseCMap(cmap))
  }
  return maps
}

/** Bytes of a PDF string token: `(literal)` with escapes, or `<hex>`. */
const stringBytes = (token: string): Array<number> => {
  if (token.startsWith("<")) return hexBytes(token.slice(1, -1))
  const body = token.slice(1, -1)
  const out: Array<number> = []
  for (let index = 0; index < body.length; index++) {
    const char = body[index]!
    if (char !== "\\") {
      out.push(char.charCodeAt(0) & 0xff)
      continue
    }
    const next = body[++index] ?? ""
    const octal = /^[0-7]{1,3}/u.exec(body.slice(index))
    if (octal !== null) {
      out.push(Number.parseInt(octal[0], 8) & 0xff)
      index += octal[0].length - 1
    } else if (next !== "\n" && next !== "\r") {
      out.push(({ n: 10, r: 13, t: 9, b: 8, f: 12 } as Record<string, number>)[next] ?? next.charCodeAt(0))
    }
  }
  return out
}

const decodeString = (token: string, font: ToUnicode | undefined): string => {
  const bytes = stringBytes(token)
  if (font === undefined) return String.fromCharCode(...bytes)
  let out = ""
  for (let index = 0; index < bytes.length; index += font.bytes) {
    const code = font.bytes === 2 ? (bytes[index]! << 8) | (bytes[index + 1] ?? 0) : bytes[index]!
    out += font.map.get(code) ?? (font.bytes === 1 ? String.fromCharCode(code) : "")
  }
  return out
}

const tokenPattern = /\((?:\\[\s\S]|[^\\)])*\)|<[0-9a-fA-F\s]*>|\[|\]|\/[^\s/[\]()<>]+|[-+]?\d*\.?\d+|[A-Za-z'"*]+/gu

/** The text of one content stream, a line per move down the page. */
export const contentText = (content: string, fonts: ReadonlyMap<string, ToUnicode>): string => {
  let out = ""
  let font: ToUnicode | undefined
  const operands: Array<string> = []
  let array: Array<string> | null = null
  // A move right after a whole word is a gap between words; after a single glyph it is the next letter.
  let lastRun = 0
  const emit = (text: string) => {
    out += text
    lastRun = text.length
  }
  for (const match of content.matchAll(tokenPattern)) {
    const token = match[0]
    if (token === "[") array = []
    else if (token === "]") {
      operands.push(JSON.stringify(array ?? []))
      array = null
    } else if (array !== null) array.push(token)
    else if (/^[A-Za-z'"*]/u.test(token)) {
      if (token === "Tf") font = fonts.get((operands.at(-2) ?? "").slice(1))
      else if (token === "Tj" || token === "'" || token === "\"") emit((token === "Tj" ? "" : "\n") + decodeString(operands.at(-1) ?? "()", font))
      else if (token === "TJ") {
        let run = ""
        for (const item of JSON.parse(operands.at(-1) ?? "[]") as Array<string>) {
          run += /^[(<]/u.test(item) ? decodeString(item, font) : Number(item) < -200 ? " " : ""
        }
        emit(run)
      } else if (token === "T*" || token === "ET") out += "\n"
      else if (token === "Td" || token === "TD") {
        out += Math.abs(Number(operands.at(-1))) > 0.5 ? "\n" : Number(operands.at(-2)) > 0.5 && lastRun > 1 ? " " : ""
      }
      else if (token === "Tm") out += "\n"
      operands.length = 0
    } else operands.push(token)
    if (out.length > charactersMax) break
  }
  return out
}

const pageText = (budget: Budget, node: PDFDict): string => {
  const pdf = budget.pdf
  const resources = node.lookupMaybe(PDFName.of("Resources"), PDFDict)
  const fonts = fontMaps(budget, resources)
  const contents = node.get(PDFName.of("Contents"))
  const looked = pdf.context.lookup(contents)
  const streams = looked instanceof PDFArray ? looked.asArray().map((ref) => pdf.context.lookup(ref)) : [looked]
  return streams.map((stream) => contentText(streamText(budget, stream ?? undefined) ?? "", fonts)).join("\n")
}

export interface Reading {
  /** The text, or null when there is none (a scan, an unreadable file, or nothing before the cap). */
  readonly text: string | null
  /** Reading stopped at Limits.receiptPdfContentBytesMax: the text, if any, is partial. */
  readonly truncated: boolean
  /** Decoded bytes read, at most Limits.receiptPdfContentBytesMax. */
  readonly contentBytes: number
}

/** A PDF's text with what bounded it; see `read`. */
export const readBounded = async (bytes: Uint8Array): Promise<Reading> => {
  try {
    const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })
    const budget: Budget = { pdf, decoded: new Map(), used: 0, truncated: false }
    const texts: Array<string> = []
    for (const page of pdf.getPages().slice(0, pagesMax)) {
      texts.push(pageText(budget, page.node))
      if (budget.truncated) break
    }
    const tidy = texts.join("\n").replace(/[^\S\n]+/gu, " ").replace(/\n\s*\n+/gu, "\n").trim().slice(0, charactersMax)
    return { text: tidy === "" ? null : tidy, truncated: budget.truncated, contentBytes: budget.used }
  } catch {
    return { text: null, truncated: false, contentBytes: 0 }
  }
}

export const readText = HeavyWork.job("pdf.text", readBounded)

/**
 * The text of a PDF, or null when it has none (a scan) or cannot be read, read off the request's
 * thread when the server has a pool (ADR 2320). A file past the job's time or memory is read as a
 * scan is: the receipt is kept, with no text, as for the decompression cap above.
 */
export const read = (bytes: Uint8Array): Effect.Effect<string | null> =>
  HeavyWork.run(readText, bytes).pipe(
    Effect.map((reading) => reading.text),
    Effect.catchTag("HeavyWorkRefused", (refused) => Effect.as(Effect.logWarning(`receipt PDF not read: ${refused.message}`), null))
  )
