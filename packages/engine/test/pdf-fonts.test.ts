import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PdfFonts from "../src/kernel/PdfFonts.ts"

/** The engine's PDF font (ADR 0016): what it covers, and that any text is drawable once made printable. */
describe("PdfFonts", () => {
  it("covers Latin, Greek, Cyrillic, punctuation, currency symbols, kana and JIS kanji", () => {
    expect(PdfFonts.covers("Überprüfung — 検査 € £ ¥ ₹ „Zitat“ ΑΩαω Жж ÆØÅ ŁŚŻ ĞŞİ ひらがな カタカナ ｶﾀｶﾅ 亜熙 ㈱ ① №")).toBe(true)
    expect(PdfFonts.covers("\u{1F600}")).toBe(false)
    expect(PdfFonts.printable("a\u{1F600}b\u{2000B}c")).toBe(`a${PdfFonts.placeholder}b${PdfFonts.placeholder}c`)
    expect(PdfFonts.printable("line\nnext\ttab")).toBe("line next tab")
    // A decomposed "U + combining diaeresis" is composed into the one glyph.
    expect(PdfFonts.printable("U\u0308")).toBe("Ü")
  })

  it("makes any text printable: one character out per character in, each covered or the placeholder", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
      const shown = PdfFonts.printable(text)
      expect(Array.from(shown)).toHaveLength(Array.from(text.normalize("NFC")).length)
      expect(PdfFonts.covers(shown)).toBe(true)
      // Printable text is a fixed point: nothing more is replaced.
      expect(PdfFonts.printable(shown)).toBe(shown)
    }), { numRuns: 100 })
  })
})
