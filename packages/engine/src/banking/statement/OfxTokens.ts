/**
 * The tokens of an OFX body (Ofx.ts): opening, closing and empty tags, and text, each with the
 * file line it is on; comments and processing instructions skipped.
 */

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

/** SGML and XML entities; a bare "&" (common in memos) stays as it is. */
export const unescapeText = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)))
    return entities[name.toLowerCase()] ?? whole
  })

export interface Token {
  readonly kind: "open" | "close" | "text" | "empty"
  readonly name: string
  readonly text: string
  readonly line: number
}

const tokenPattern = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][A-Za-z0-9._:-]*)[^>]*?(\/?)>|([^<]+)|</gu

/**
 * The tokens from `start` on, one at a time. Lines are counted once over the whole file, as the
 * tokens move forward through it.
 */
export const tokenizer = (text: string, start: number) => {
  let line = 1
  let nextNewline = text.indexOf("\n")
  const lineAt = (index: number): number => {
    while (nextNewline !== -1 && nextNewline < index) {
      line++
      nextNewline = text.indexOf("\n", nextNewline + 1)
    }
    return line
  }
  const pattern = new RegExp(tokenPattern.source, tokenPattern.flags)
  pattern.lastIndex = start
  const next = (): Token | null => {
    for (;;) {
      const match = pattern.exec(text)
      if (match === null) return null
      const tokenLine = lineAt(match.index)
      if (match[1] !== undefined) return { kind: "text", name: "", text: match[1], line: tokenLine }
      if (match[3] !== undefined) {
        const name = match[3].toUpperCase()
        if (match[2] === "/") return { kind: "close", name, text: "", line: tokenLine }
        return { kind: match[4] === "/" ? "empty" : "open", name, text: "", line: tokenLine }
      }
      if (match[5] !== undefined) return { kind: "text", name: "", text: unescapeText(match[5]), line: tokenLine }
      if (match[0] === "<") return { kind: "text", name: "", text: "<", line: tokenLine }
      // Comments and processing instructions carry nothing a statement needs.
    }
  }
  return { next, lineAt }
}
