import { PDFDocument } from "pdf-lib"
import { describe, expect, it } from "vitest"
import * as PdfFonts from "../src/kernel/PdfFonts.ts"

/**
 * The fonts are parsed once per process, not once per PDF (ADR 0016): parsing the four font files
 * cost most of a PDF's time. Each document still gets its own subset of the parsed font. pdf-lib's
 * embedded fonts are reached through its private fields (`fonts`, `embedder`): nothing public
 * tells a font parsed again from one shared.
 */

interface Embedded {
  readonly embedder: { readonly font: unknown; readonly subset: unknown }
}

const embeddedOf = (pdf: PDFDocument): ReadonlyArray<Embedded> => (pdf as unknown as { readonly fonts: ReadonlyArray<Embedded> }).fonts

const drawn = async (text: string) => {
  const pdf = await PDFDocument.create()
  const { regular, bold } = await PdfFonts.embed(pdf)
  const page = pdf.addPage([300, 200])
  regular.drawText(page, text, { x: 10, y: 100, size: 10 })
  bold.drawText(page, text, { x: 10, y: 80, size: 10 })
  return { pdf, bytes: await pdf.save() }
}

describe("PdfFonts parsing", () => {
  it("parses each font once and subsets it per document", async () => {
    const first = await drawn("Invoice 1")
    const second = await drawn("Überprüfung — 検査 € Łódź")
    const [a, b] = [embeddedOf(first.pdf), embeddedOf(second.pdf)]
    expect(a).toHaveLength(4)
    expect(b).toHaveLength(4)
    for (let index = 0; index < 4; index++) {
      expect(b[index]!.embedder.font).toBe(a[index]!.embedder.font)
      expect(b[index]!.embedder.subset).not.toBe(a[index]!.embedder.subset)
    }
    // The first document carries only its own few glyphs, not the second's kanji.
    expect(first.bytes.byteLength).toBeLessThan(second.bytes.byteLength)
  })
})
