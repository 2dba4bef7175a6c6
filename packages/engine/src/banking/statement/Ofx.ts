import { parseCents } from "./Amount.ts"
import { parseOfxDate } from "./Dates.ts"
import { type StatementInfo, type StatementLine, type StatementReader, UnreadableStatement } from "./Statement.ts"

/**
 * Reads OFX 1.x (SGML), OFX 2.x (XML) and QFX statements in one pass, without building a tree.
 *
 * SGML leaves need no closing tag, real files mix closed and unclosed ones, put a whole body on
 * one line, or leave an element empty right before the next tag. So the reader knows the OFX
 * aggregates by name: any other element is a leaf whose value is the text after it, closed by
 * the next tag whatever that is; an aggregate's closing tag closes every leaf and unclosed
 * aggregate opened inside it, and a closing tag with nothing open to close is ignored.
 * Transactions are handed out as each STMTTRN closes.
 */

const aggregates = new Set([
  "OFX", "SIGNONMSGSRSV1", "SONRS", "STATUS", "FI", "BANKMSGSRSV1", "STMTTRNRS", "STMTRS", "BANKACCTFROM",
  "BANKACCTTO", "CCACCTTO", "BANKTRANLIST", "STMTTRN", "PAYEE", "LEDGERBAL", "AVAILBAL", "CREDITCARDMSGSRSV1",
  "CCSTMTTRNRS", "CCSTMTRS", "CCACCTFROM", "INVSTMTMSGSRSV1", "INVSTMTTRNRS", "INVSTMTRS", "INVACCTFROM",
  "INVTRANLIST", "INVBANKTRAN", "INVPOSLIST", "INVBAL", "BALLIST", "BAL", "CURRENCY", "ORIGCURRENCY",
  "SIGNUPMSGSRSV1", "ACCTINFOTRNRS", "ACCTINFORS", "ACCTINFO", "BANKACCTINFO", "CCACCTINFO", "INVACCTINFO",
  "SECLISTMSGSRSV1", "SECLIST", "MKTGINFO", "EXTBANKDESC", "STMTENDRS", "STMTENDTRNRS", "CCSTMTENDRS",
  "CCSTMTENDTRNRS", "CLOSING", "INVPOS", "POSSTOCK", "POSMF", "POSDEBT", "POSOPT", "POSOTHER", "SECID",
  "BUYSTOCK", "SELLSTOCK", "INVBUY", "INVSELL", "INCOME", "REINVEST", "TRANSFER", "INVTRAN", "OPENORDERS",
  "STOCKINFO", "MFINFO", "DEBTINFO", "OPTINFO", "OTHERINFO", "SECINFO", "INVACCTTO", "IMAGEDATA"
])

const statementAggregates = new Set(["STMTRS", "CCSTMTRS", "INVSTMTRS"])
const accountAggregates = new Set(["BANKACCTFROM", "CCACCTFROM", "INVACCTFROM"])

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

/** SGML and XML entities; a bare "&" (common in memos) stays as it is. */
export const unescapeText = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)))
    return entities[name.toLowerCase()] ?? whole
  })

interface Frame {
  readonly name: string
  readonly line: number
  readonly fields: Map<string, string>
}

interface Token {
  readonly kind: "open" | "close" | "text" | "empty"
  readonly name: string
  readonly text: string
  readonly line: number
}

const tokenPattern = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][A-Za-z0-9._:-]*)[^>]*?(\/?)>|([^<]+)|</gu

/** The start of the OFX body; everything before it is the header. */
const bodyStart = (text: string): number => {
  const match = /<OFX[\s>]/iu.exec(text)
  return match === null ? -1 : match.index
}

/** The header's fields (SGML `KEY:VALUE` lines or the `<?OFX ...?>` attributes), for the version check. */
export const header = (text: string): Record<string, string> => {
  const start = bodyStart(text)
  const head = start < 0 ? text.slice(0, 2_000) : text.slice(0, start)
  const fields: Record<string, string> = {}
  for (const match of head.matchAll(/^\s*([A-Z]+):([^\r\n]*)$/gmu)) fields[match[1]!] = match[2]!.trim()
  for (const match of head.matchAll(/([A-Z]+)="([^"]*)"/gu)) fields[match[1]!] ??= match[2]!
  return fields
}

/** Account ids of every statement (its first ACCTID), without reading the transactions: picks the statement to import. */
export const accountIds = (text: string): ReadonlyArray<string> => {
  const ids = new Set<string>()
  for (const match of text.matchAll(/<(?:STMTRS|CCSTMTRS|INVSTMTRS)>[\s\S]*?<ACCTID>([^<\r\n]*)/giu)) {
    ids.add(match[1]!.trim())
  }
  return Array.from(ids)
}

export const read = (text: string): StatementReader => {
  const start = bodyStart(text)
  if (start < 0) throw new UnreadableStatement("not an OFX or QFX file: there is no <OFX> element", 1)

  // Lines are counted once over the whole file, as the tokens move forward through it.
  let line = 1
  let nextNewline = text.indexOf("\n")
  const lineAt = (index: number): number => {
    while (nextNewline !== -1 && nextNewline < index) {
      line++
      nextNewline = text.indexOf("\n", nextNewline + 1)
    }
    return line
  }

  tokenPattern.lastIndex = start
  const nextToken = (): Token | null => {
    for (;;) {
      const match = tokenPattern.exec(text)
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

  const statements: Array<StatementInfo> = []
  const stack: Array<Frame> = []
  const errors: Array<{ code: string; message: string; line: number }> = []
  let pendingLeaf: { name: string; text: string; line: number } | null = null
  let current: StatementInfo | null = null
  let sawOfxEnd = false

  const top = (): Frame | undefined => stack[stack.length - 1]

  const setLeaf = (name: string, value: string) => {
    const frame = top()
    if (frame !== undefined && !frame.fields.has(name)) frame.fields.set(name, value.trim())
  }

  const flushLeaf = () => {
    if (pendingLeaf === null) return
    setLeaf(pendingLeaf.name, pendingLeaf.text)
    pendingLeaf = null
  }

  const field = (frame: Frame, name: string): string | null => {
    const value = frame.fields.get(name)
    return value === undefined || value === "" ? null : value
  }

  const amountOf = (value: string | null, what: string, at: number): number => {
    const cents = value === null ? null : parseCents(value, value.includes(".") ? "." : undefined)
    if (cents === null) {
      throw new UnreadableStatement(
        value === null ? `${what} has no amount` : `${what} "${value}" is not an amount`,
        at
      )
    }
    return cents
  }

  /** Closes the frame on top and returns the transaction it completes, if it is one. */
  const close = (frame: Frame): StatementLine | null => {
    const parent = top()
    switch (frame.name) {
      case "STMTRS":
      case "CCSTMTRS":
      case "INVSTMTRS":
        if (current !== null) current.currency = field(frame, "CURDEF")
        current = null
        return null
      case "BANKACCTFROM":
      case "CCACCTFROM":
      case "INVACCTFROM":
        if (current !== null && accountAggregates.has(frame.name)) {
          Object.assign(current, {
            accountId: field(frame, "ACCTID"),
            accountType: field(frame, "ACCTTYPE") ?? (frame.name === "CCACCTFROM" ? "CREDITCARD" : null)
          })
        }
        return null
      case "LEDGERBAL": {
        const amount = field(frame, "BALAMT")
        if (current !== null && amount !== null) {
          const cents = parseCents(amount)
          // An empty or unreadable balance is no balance: the transactions still stand on their own.
          if (cents !== null) {
            current.ledgerBalanceCents = cents
            current.ledgerBalanceDate = parseOfxDate(field(frame, "DTASOF") ?? "")
          }
        }
        return null
      }
      case "PAYEE":
        if (parent !== undefined && !parent.fields.has("PAYEE.NAME")) parent.fields.set("PAYEE.NAME", field(frame, "NAME") ?? "")
        return null
      case "STATUS": {
        const code = field(frame, "CODE")
        const severity = (field(frame, "SEVERITY") ?? "").toUpperCase()
        if (code !== null && code !== "0" && severity === "ERROR") {
          errors.push({ code, message: field(frame, "MESSAGE") ?? `the bank answered with error code ${code}`, line: frame.line })
        }
        return null
      }
      case "STMTTRN": {
        if (current === null) return null
        const posted = field(frame, "DTPOSTED")
        if (posted === null) throw new UnreadableStatement("a transaction has no posting date (DTPOSTED)", frame.line)
        const date = parseOfxDate(posted)
        if (date === null) throw new UnreadableStatement(`the posting date "${posted}" is not a date`, frame.line)
        const amountCents = amountOf(field(frame, "TRNAMT"), "the amount (TRNAMT)", frame.line)
        current.transactions++
        const name = field(frame, "NAME") ?? (frame.fields.get("PAYEE.NAME") || null)
        return {
          line: frame.line,
          date,
          amountCents,
          payee: name,
          memo: field(frame, "MEMO"),
          checkNumber: field(frame, "CHECKNUM"),
          statementId: field(frame, "FITID"),
          statement: current.index
        }
      }
      default:
        return null
    }
  }

  const ready: Array<StatementLine> = []
  let finished = false

  const closeDownTo = (depth: number) => {
    while (stack.length > depth) {
      const transaction = close(stack.pop()!)
      if (transaction !== null) ready.push(transaction)
    }
  }

  const finish = () => {
    finished = true
    flushLeaf()
    // Whatever is still open at the end closes here, so a file missing its last tags still reads.
    closeDownTo(0)
    if (statements.length > 0) return
    const error = errors[0]
    if (error !== undefined) {
      throw new UnreadableStatement(
        `the bank answered with an error instead of a statement: ${error.message} (code ${error.code})`,
        error.line
      )
    }
    throw new UnreadableStatement(
      sawOfxEnd ? "the file holds no bank or card statement" : "the file ends before any statement",
      sawOfxEnd ? null : lineAt(text.length)
    )
  }

  const step = (token: Token) => {
    switch (token.kind) {
      case "text":
        if (pendingLeaf !== null) pendingLeaf.text += token.text
        return
      case "empty":
        flushLeaf()
        setLeaf(token.name, "")
        return
      case "open":
        flushLeaf()
        if (!aggregates.has(token.name)) {
          pendingLeaf = { name: token.name, text: "", line: token.line }
          return
        }
        stack.push({ name: token.name, line: token.line, fields: new Map() })
        if (statementAggregates.has(token.name)) {
          current = {
            index: statements.length,
            accountId: null,
            accountType: null,
            currency: null,
            transactions: 0,
            ledgerBalanceCents: null,
            ledgerBalanceDate: null
          }
          statements.push(current)
        }
        return
      case "close": {
        const closesLeaf = pendingLeaf !== null && pendingLeaf.name === token.name
        flushLeaf()
        if (closesLeaf) return
        if (token.name === "OFX") sawOfxEnd = true
        const depth = stack.map((frame) => frame.name).lastIndexOf(token.name)
        if (depth >= 0) closeDownTo(depth)
      }
    }
  }

  const next = (): StatementLine | null => {
    while (ready.length === 0 && !finished) {
      const token = nextToken()
      if (token === null) finish()
      else step(token)
    }
    return ready.shift() ?? null
  }

  return { next, statements: () => statements }
}
