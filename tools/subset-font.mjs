#!/usr/bin/env node
/**
 * Makes the subset of Noto Sans JP that the engine embeds in its PDFs (packages/engine/fonts/,
 * docs/decisions/0016-unicode-pdfs.md). Run it by hand when the font or the character set changes;
 * it is no dependency of any package. It uses `subset-font` (HarfBuzz's hb-subset compiled to
 * WebAssembly), installed in a scratch folder outside the repository:
 *
 *   mkdir -p /tmp/fontsub && cd /tmp/fontsub && npm init -y && npm i subset-font@2.9.0
 *   # the source: @expo-google-fonts/noto-sans-jp 0.4.3 (Google Fonts v56), SIL OFL 1.1
 *   npm pack @expo-google-fonts/noto-sans-jp@0.4.3 && tar xzf expo-google-fonts-noto-sans-jp-0.4.3.tgz
 *   cd /tmp/fontsub && node /path/to/ledger/tools/subset-font.mjs \
 *     package/400Regular/NotoSansJP_400Regular.ttf /path/to/ledger/packages/engine/fonts/NotoSansJP-Regular-subset.ttf
 *   node /path/to/ledger/tools/subset-font.mjs \
 *     package/700Bold/NotoSansJP_700Bold.ttf /path/to/ledger/packages/engine/fonts/NotoSansJP-Bold-subset.ttf
 *
 * `subset-font` is resolved from the current folder (or SUBSET_FONT_HOME). The character set is
 * written out below so a reviewer can see what prints: Latin (Basic, Latin-1, Extended-A and -B,
 * Extended Additional for Vietnamese), combining marks, Greek, Cyrillic, general punctuation,
 * super- and subscripts, currency symbols (€ £ ¥ ₹ ...), letterlike symbols, number forms, arrows,
 * mathematical operators, enclosed alphanumerics, box drawing, geometric shapes, CJK symbols and
 * punctuation, hiragana, katakana, enclosed CJK and CJK compatibility (㈱ ㎡), half- and
 * full-width forms, U+FFFD, and every character of JIS X 0208 rows 1 to 84 (its symbols, kana,
 * Greek and Cyrillic, level 1 and level 2 kanji) plus the NEC special characters of row 13, read
 * from the WHATWG EUC-JP decoder that Node carries (no table to download). Hinting is dropped (PDF
 * viewers rasterise with their own hinter) to keep the file small; layout tables are kept.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join, resolve } from "node:path"

const [input, output] = process.argv.slice(2)
if (input === undefined || output === undefined) {
  console.error("usage: node tools/subset-font.mjs <source.ttf> <subset.ttf>")
  process.exit(2)
}

const ranges = [
  [0x0020, 0x007e], [0x00a0, 0x024f], [0x0250, 0x02ff], [0x0300, 0x036f], [0x0370, 0x03ff], [0x0400, 0x052f],
  [0x1e00, 0x1eff], [0x2000, 0x206f], [0x2070, 0x209f], [0x20a0, 0x20cf], [0x2100, 0x214f], [0x2150, 0x218f],
  [0x2190, 0x21ff], [0x2200, 0x22ff], [0x2300, 0x23ff], [0x2460, 0x24ff], [0x2500, 0x257f], [0x25a0, 0x25ff],
  [0x2600, 0x26ff], [0x3000, 0x303f], [0x3040, 0x309f], [0x30a0, 0x30ff], [0x31f0, 0x31ff], [0x3200, 0x32ff],
  [0x3300, 0x33ff], [0xff00, 0xffef], [0xfffd, 0xfffd]
]

const codePoints = new Set()
for (const [from, to] of ranges) for (let code = from; code <= to; code++) codePoints.add(code)

// JIS X 0208 rows 1-84 (with row 13's NEC characters) through EUC-JP: row r, cell c is the bytes
// 0xA0 + r, 0xA0 + c. Unassigned positions decode to U+FFFD, which the set holds anyway.
const eucJp = new TextDecoder("euc-jp")
let jis = 0
for (let row = 1; row <= 84; row++) {
  for (let cell = 1; cell <= 94; cell++) {
    const text = eucJp.decode(new Uint8Array([0xa0 + row, 0xa0 + cell]))
    const code = text.codePointAt(0)
    if (text.length === 1 && code !== 0xfffd) {
      codePoints.add(code)
      jis++
    }
  }
}

const home = resolve(process.env.SUBSET_FONT_HOME ?? process.cwd())
const subsetFont = createRequire(join(home, "package.json"))("subset-font")
const source = readFileSync(input)
const text = String.fromCodePoint(...codePoints)
const subset = await subsetFont(source, text, { targetFormat: "truetype", noHinting: true })
writeFileSync(output, subset)
console.log(`${input}: ${source.byteLength} bytes -> ${output}: ${subset.byteLength} bytes (${codePoints.size} code points asked, ${jis} from JIS X 0208)`)
