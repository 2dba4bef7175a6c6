import fontkit from "@pdf-lib/fontkit"
import type { Color, PDFDocument, PDFFont, PDFPage } from "pdf-lib"

/**
 * The fonts every PDF the engine draws is set in (docs/decisions/0016-unicode-pdfs.md). The
 * standard PDF fonts speak WinAnsi only, so "Überprüfung — 検査 €" could not print. Instead two
 * vendored subsets are embedded through fontkit (packages/engine/fonts/, made by
 * tools/subset-font.mjs): Noto Sans JP (SIL OFL 1.1) for Latin-1, punctuation, kana and the JIS
 * X 0208 kanji, and DejaVu Sans (Bitstream Vera licence, DejaVu changes public domain) for what
 * Noto Sans JP lacks: most of Latin Extended-A and -B (Ł, Ş, Ő, ...), most of Greek and
 * Cyrillic, ₹ and other currency signs. Each character is drawn in the first of the two that has
 * it; pdf-lib embeds only the glyphs a document uses, so a one-page invoice stays small. Text is
 * written with a ToUnicode map, so it is copied and extracted as written.
 *
 * A character neither has (an emoji, a rare kanji outside JIS X 0208) is drawn as `placeholder`,
 * a visible mark, rather than an invisible .notdef glyph or a failed render.
 */

/** What is drawn for a character the fonts cannot show: U+25A1 WHITE SQUARE ("tofu"). */
export const placeholder = "\u25A1"

const files = {
  regular: ["NotoSansJP-Regular-subset.ttf", "DejaVuSans-subset.ttf"],
  bold: ["NotoSansJP-Bold-subset.ttf", "DejaVuSans-Bold-subset.ttf"]
} as const

interface Loaded {
  readonly regular: readonly [Uint8Array, Uint8Array]
  readonly bold: readonly [Uint8Array, Uint8Array]
  /** Code points the primary font (Noto Sans JP) draws in both weights. */
  readonly primary: ReadonlySet<number>
  /** Code points the fallback (DejaVu Sans) draws in both weights. */
  readonly fallback: ReadonlySet<number>
}

let loaded: Loaded | null = null

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0]
type ParsedFont = ReturnType<Fontkit["create"]>
const parsed = new WeakMap<Uint8Array, ParsedFont>()

/**
 * fontkit, parsing each font file once per process: pdf-lib calls `create` on every `embedFont`,
 * and parsing four fonts cost most of a PDF's time (ADR 0016). The parsed font is only read from
 * afterwards (each document's subset is its own `createSubset()`, encoded synchronously), so
 * documents share it. Keyed by the bytes' identity: `load` reads each file into one array.
 */
const parsedOnce: Fontkit = {
  create: (bytes, postscriptName) => {
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName)
    const known = parsed.get(bytes)
    if (known !== undefined) return known
    const font = fontkit.create(bytes)
    parsed.set(bytes, font)
    return font
  }
}

/**
 * The font files, read once per process. They sit in the package's fonts/ folder, which is two
 * levels above this module in the sources (src/kernel/) and one above the bundle (dist/). The
 * file system is reached through `process.getBuiltinModule` so the engine's bundle imports no
 * Node module by name (its build is platform-neutral).
 */
const load = (): Loaded => {
  if (loaded !== null) return loaded
  const fs = process.getBuiltinModule("node:fs")
  const url = process.getBuiltinModule("node:url")
  const read = (file: string): Uint8Array => {
    const candidates = [`../../fonts/${file}`, `../fonts/${file}`].map((relative) => url.fileURLToPath(new URL(relative, import.meta.url)))
    const found = candidates.find((path) => fs.existsSync(path))
    if (found === undefined) throw new Error(`The PDF font ${file} is missing from the engine package (looked at ${candidates.join(", ")}).`)
    return new Uint8Array(fs.readFileSync(found))
  }
  const regular = [read(files.regular[0]), read(files.regular[1])] as const
  const bold = [read(files.bold[0]), read(files.bold[1])] as const
  const both = (a: Uint8Array, b: Uint8Array) => {
    const second = new Set(parsedOnce.create(b).characterSet)
    return new Set(parsedOnce.create(a).characterSet.filter((code) => second.has(code)))
  }
  loaded = { regular, bold, primary: both(regular[0], bold[0]), fallback: both(regular[1], bold[1]) }
  return loaded
}

/** Control characters become spaces (a PDF text run is one line); nothing else is dropped. */
const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u

const drawable = (code: number, fonts: Loaded) => fonts.primary.has(code) || fonts.fallback.has(code)

/**
 * The text as the fonts can draw it: composed (NFC, so "U" + combining diaeresis is the "Ü" glyph),
 * control characters as spaces, and each character neither font has as `placeholder`.
 */
export const printable = (text: string): string => {
  const fonts = load()
  let out = ""
  for (const character of text.normalize("NFC")) {
    if (control.test(character)) out += " "
    else out += drawable(character.codePointAt(0)!, fonts) ? character : placeholder
  }
  return out
}

/** Whether the fonts draw every character of `text` (after composition). */
export const covers = (text: string): boolean => {
  const fonts = load()
  for (const character of text.normalize("NFC")) if (!drawable(character.codePointAt(0)!, fonts)) return false
  return true
}

/**
 * One weight of the engine's type: measures and draws any text, each run of characters in the
 * embedded font that has them. Generators use it where they would use a pdf-lib `PDFFont`.
 */
export interface Face {
  readonly widthOfTextAtSize: (text: string, size: number) => number
  /** Draws `text` (made printable) with its left end at `x`. */
  readonly drawText: (page: PDFPage, text: string, options: { readonly x: number; readonly y: number; readonly size: number; readonly color?: Color }) => void
}

export interface Fonts {
  readonly regular: Face
  readonly bold: Face
}

/** `text` (printable) cut into runs of one font each: 0 the primary, 1 the fallback. */
const runsOf = (text: string, fonts: Loaded): Array<{ readonly font: 0 | 1; readonly text: string }> => {
  const runs: Array<{ font: 0 | 1; text: string }> = []
  for (const character of printable(text)) {
    const font = fonts.primary.has(character.codePointAt(0)!) ? 0 : 1
    const last = runs.at(-1)
    if (last !== undefined && last.font === font) last.text += character
    else runs.push({ font, text: character })
  }
  return runs
}

const faceOf = (embedded: readonly [PDFFont, PDFFont], fonts: Loaded): Face => {
  const widthOfTextAtSize = (text: string, size: number) =>
    runsOf(text, fonts).reduce((sum, run) => sum + embedded[run.font].widthOfTextAtSize(run.text, size), 0)
  return {
    widthOfTextAtSize,
    drawText: (page, text, options) => {
      let x = options.x
      for (const run of runsOf(text, fonts)) {
        const font = embedded[run.font]
        page.drawText(run.text, { x, y: options.y, size: options.size, font, ...(options.color === undefined ? {} : { color: options.color }) })
        x += font.widthOfTextAtSize(run.text, options.size)
      }
    }
  }
}

const embedWeight = async (pdf: PDFDocument, bytes: readonly [Uint8Array, Uint8Array], fonts: Loaded): Promise<Face> =>
  faceOf([await pdf.embedFont(bytes[0], { subset: true }), await pdf.embedFont(bytes[1], { subset: true })], fonts)

/** The regular weight alone, for documents with no headings (each embedded font costs a parse). */
export const embedRegular = async (pdf: PDFDocument): Promise<Face> => {
  const fonts = load()
  pdf.registerFontkit(parsedOnce)
  return await embedWeight(pdf, fonts.regular, fonts)
}

/**
 * Both weights embedded in `pdf`, subset to the glyphs the document ends up using. Called inside
 * the drawing functions' promise (pdf-lib's API is asynchronous); the font files are read once.
 */
export const embed = async (pdf: PDFDocument): Promise<Fonts> => {
  const fonts = load()
  pdf.registerFontkit(parsedOnce)
  return { regular: await embedWeight(pdf, fonts.regular, fonts), bold: await embedWeight(pdf, fonts.bold, fonts) }
}
