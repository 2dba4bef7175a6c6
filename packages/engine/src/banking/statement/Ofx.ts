import { parseCents } from "../../kernel/values/Money.ts"
import { parseOfxDate } from "./Dates.ts"
import { tokenizer, type Token } from "./OfxTokens.ts"
import { type StatementInfo, type StatementLine, type StatementReader, UnreadableStatement } from "./Statement.ts"

export { unescapeText } from "./OfxTokens.ts"

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

interface Frame {
  readonly name: string
  readonly line: number
  readonly fields: Map<string, string>
}

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


/** Where a reading of the body is: the open frames, the statements and transactions so far. */
interface Parse {
  readonly statements: Array<StatementInfo>
  readonly stack: Array<Frame>
  readonly errors: Array<{ readonly code: string; readonly message: string; readonly line: number }>
  /** Transactions closed and not yet handed out. */
  readonly ready: Array<StatementLine>
  pendingLeaf: { readonly name: string; text: string; readonly line: number } | null
  current: StatementInfo | null
  sawOfxEnd: boolean
  finished: boolean
}

const top = (parse: Parse): Frame | undefined => parse.stack[parse.stack.length - 1]

const setLeaf = (parse: Parse, name: string, value: string) => {
  const frame = top(parse)
  if (frame !== undefined && !frame.fields.has(name)) frame.fields.set(name, value.trim())
}

const flushLeaf = (parse: Parse) => {
  if (parse.pendingLeaf === null) return
  setLeaf(parse, parse.pendingLeaf.name, parse.pendingLeaf.text)
  parse.pendingLeaf = null
}

const field = (frame: Frame, name: string): string | null => {
  const value = frame.fields.get(name)
  return value === undefined || value === "" ? null : value
}

const amountOf = (value: string | null, what: string, at: number): number => {
  const cents = value === null ? null : parseCents(value, value.includes(".") ? "." : undefined)
  if (cents === null) {
    throw new UnreadableStatement(value === null ? `${what} has no amount` : `${what} "${value}" is not an amount`, at)
  }
  return cents
}

/** A closed STMTTRN as a transaction of the statement being read. */
const transactionOf = (current: StatementInfo, frame: Frame): StatementLine => {
  const posted = field(frame, "DTPOSTED")
  if (posted === null) throw new UnreadableStatement("a transaction has no posting date (DTPOSTED)", frame.line)
  const date = parseOfxDate(posted)
  if (date === null) throw new UnreadableStatement(`the posting date "${posted}" is not a date`, frame.line)
  const amountCents = amountOf(field(frame, "TRNAMT"), "the amount (TRNAMT)", frame.line)
  current.transactions++
  return {
    line: frame.line,
    date,
    amountCents,
    payee: field(frame, "NAME") ?? (frame.fields.get("PAYEE.NAME") || null),
    memo: field(frame, "MEMO"),
    checkNumber: field(frame, "CHECKNUM"),
    statementId: field(frame, "FITID"),
    statement: current.index
  }
}

/** A LEDGERBAL: an empty or unreadable balance is no balance, and the transactions still stand on their own. */
const ledgerBalance = (current: StatementInfo, frame: Frame) => {
  const amount = field(frame, "BALAMT")
  const cents = amount === null ? null : parseCents(amount)
  if (cents === null) return
  current.ledgerBalanceCents = cents
  current.ledgerBalanceDate = parseOfxDate(field(frame, "DTASOF") ?? "")
}

/** Closes the frame just taken off the stack; answers the transaction it completes, if it is one. */
const close = (parse: Parse, frame: Frame): StatementLine | null => {
  const { current } = parse
  const parent = top(parse)
  if (statementAggregates.has(frame.name)) {
    if (current !== null) current.currency = field(frame, "CURDEF")
    parse.current = null
  } else if (accountAggregates.has(frame.name)) {
    if (current !== null) {
      Object.assign(current, {
        accountId: field(frame, "ACCTID"),
        accountType: field(frame, "ACCTTYPE") ?? (frame.name === "CCACCTFROM" ? "CREDITCARD" : null)
      })
    }
  } else if (frame.name === "LEDGERBAL") {
    if (current !== null) ledgerBalance(current, frame)
  } else if (frame.name === "PAYEE") {
    if (parent !== undefined && !parent.fields.has("PAYEE.NAME")) parent.fields.set("PAYEE.NAME", field(frame, "NAME") ?? "")
  } else if (frame.name === "STATUS") {
    const code = field(frame, "CODE")
    const severity = (field(frame, "SEVERITY") ?? "").toUpperCase()
    if (code !== null && code !== "0" && severity === "ERROR") {
      parse.errors.push({ code, message: field(frame, "MESSAGE") ?? `the bank answered with error code ${code}`, line: frame.line })
    }
  } else if (frame.name === "STMTTRN" && current !== null) {
    return transactionOf(current, frame)
  }
  return null
}

const closeDownTo = (parse: Parse, depth: number) => {
  while (parse.stack.length > depth) {
    const transaction = close(parse, parse.stack.pop()!)
    if (transaction !== null) parse.ready.push(transaction)
  }
}

/** The end of the file: whatever is still open closes, so a file missing its last tags still reads. */
const finish = (parse: Parse, endLine: () => number) => {
  parse.finished = true
  flushLeaf(parse)
  closeDownTo(parse, 0)
  if (parse.statements.length > 0) return
  const error = parse.errors[0]
  if (error !== undefined) {
    throw new UnreadableStatement(`the bank answered with an error instead of a statement: ${error.message} (code ${error.code})`, error.line)
  }
  throw new UnreadableStatement(
    parse.sawOfxEnd ? "the file holds no bank or card statement" : "the file ends before any statement",
    parse.sawOfxEnd ? null : endLine()
  )
}

const open = (parse: Parse, token: Token) => {
  flushLeaf(parse)
  if (!aggregates.has(token.name)) {
    parse.pendingLeaf = { name: token.name, text: "", line: token.line }
    return
  }
  parse.stack.push({ name: token.name, line: token.line, fields: new Map() })
  if (statementAggregates.has(token.name)) {
    parse.current = {
      index: parse.statements.length,
      accountId: null,
      accountType: null,
      currency: null,
      transactions: 0,
      ledgerBalanceCents: null,
      ledgerBalanceDate: null
    }
    parse.statements.push(parse.current)
  }
}

const step = (parse: Parse, token: Token) => {
  switch (token.kind) {
    case "text":
      if (parse.pendingLeaf !== null) parse.pendingLeaf.text += token.text
      return
    case "empty":
      flushLeaf(parse)
      setLeaf(parse, token.name, "")
      return
    case "open":
      return open(parse, token)
    case "close": {
      const closesLeaf = parse.pendingLeaf !== null && parse.pendingLeaf.name === token.name
      flushLeaf(parse)
      if (closesLeaf) return
      if (token.name === "OFX") parse.sawOfxEnd = true
      const depth = parse.stack.map((frame) => frame.name).lastIndexOf(token.name)
      if (depth >= 0) closeDownTo(parse, depth)
    }
  }
}

export const read = (text: string): StatementReader => {
  const start = bodyStart(text)
  if (start < 0) throw new UnreadableStatement("not an OFX or QFX file: there is no <OFX> element", 1)
  const tokens = tokenizer(text, start)
  const parse: Parse = {
    statements: [],
    stack: [],
    errors: [],
    ready: [],
    pendingLeaf: null,
    current: null,
    sawOfxEnd: false,
    finished: false
  }
  const next = (): StatementLine | null => {
    while (parse.ready.length === 0 && !parse.finished) {
      const token = tokens.next()
      if (token === null) finish(parse, () => tokens.lineAt(text.length))
      else step(parse, token)
    }
    return parse.ready.shift() ?? null
  }
  return { next, statements: () => parse.statements }
}
