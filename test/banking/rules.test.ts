import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  BankRuleRules as BankRule,
  ImportRules as Dedupe,
  MatchingRules as AutoMatch,
  ReconciliationRules as Reconciliation,
  StatementAmount,
  StatementCsv as Csv,
  StatementDates,
  StatementOfx as Ofx,
  StatementText as Text
} from "@ledger/engine/rules"

const { parseCents } = StatementAmount
const { detectOrder, parseDate, parseOfxDate } = StatementDates

/** The banking area's pure rules, directly and by property. */

const cents = fc.integer({ min: -10_000_000_000, max: 10_000_000_000 })

const usFormat = (value: number): string => {
  const sign = value < 0 ? "-" : ""
  const whole = Math.floor(Math.abs(value) / 100).toLocaleString("en-US")
  return `${sign}${whole}.${String(Math.abs(value) % 100).padStart(2, "0")}`
}
const euFormat = (value: number): string => usFormat(value).replace(/,/gu, " ").replace(".", ",").replace(/ /gu, ".")

describe("amounts", () => {
  it("reads the ways banks write money", () => {
    expect(parseCents("1,036.47")).toBe(103647)
    expect(parseCents("1.234,56")).toBe(123456)
    expect(parseCents("-45.54")).toBe(-4554)
    expect(parseCents("($85.00)")).toBe(-8500)
    expect(parseCents("- $21.59")).toBe(-2159)
    expect(parseCents("-$76.00")).toBe(-7600)
    expect(parseCents("+120,00")).toBe(12000)
    expect(parseCents("11'373.94")).toBe(1137394)
    expect(parseCents("1234,37 EUR")).toBe(123437)
    expect(parseCents("£500.00")).toBe(50000)
    expect(parseCents("-00000000001500.0000")).toBe(-150000)
    expect(parseCents("+00000000000115.8331")).toBe(11583)
    expect(parseCents("100,00", ",")).toBe(10000)
    expect(parseCents("12.345", ",")).toBe(1234500)
    expect(parseCents("$120")).toBe(12000)
  })

  it("refuses what is not an amount", () => {
    for (const text of ["", ".", "  .  ", "abc", "1.2.3,4,5", "--"]) expect(parseCents(text), text).toBeNull()
  })

  it("reads back any amount written US or European style, exactly", () => {
    fc.assert(fc.property(cents, (value) => {
      expect(parseCents(usFormat(value), ".")).toBe(value)
      expect(parseCents(euFormat(value), ",")).toBe(value)
      expect(parseCents(`(${usFormat(Math.abs(value))})`, ".")).toBe(value === 0 ? 0 : -Math.abs(value))
    }))
  })
})

describe("dates", () => {
  it("reads OFX datetimes as the bank's own day", () => {
    expect(parseOfxDate("20190918100000[-03:EST]")).toBe("2019-09-18")
    expect(parseOfxDate("20121231235959.000[-5:EST]")).toBe("2012-12-31")
    expect(parseOfxDate("20070315")).toBe("2007-03-15")
    expect(parseOfxDate("20120231")).toBeNull()
    expect(parseOfxDate("201120000000")).toBeNull()
    expect(parseOfxDate("00000000")).toBeNull()
    expect(parseOfxDate("****")).toBeNull()
  })

  it("reads CSV layouts", () => {
    expect(parseDate("31.12.2019", "dmy")).toBe("2019-12-31")
    expect(parseDate("12/31/2019", "mdy")).toBe("2019-12-31")
    expect(parseDate("2019.04.19.", "dmy")).toBe("2019-04-19")
    expect(parseDate("07 Nov 2013")).toBe("2013-11-07")
    expect(parseDate("10-Nov-9")).toBe("2009-11-10")
    expect(parseDate("10 Feb 18")).toBe("2018-02-10")
    expect(parseDate("2018-02-25 12:34:56 +0000")).toBe("2018-02-25")
    expect(parseDate("6/12/15", "mdy")).toBe("2015-06-12")
    expect(parseDate("20091224120000[0:GMT]")).toBe("2009-12-24")
    expect(parseDate("Pending")).toBeNull()
    expect(parseDate("1111/11/11")).toBeNull()
  })

  it("finds the order of numeric dates from the values", () => {
    expect(detectOrder(["01/02/2020", "24/01/2020"], "mdy")).toBe("dmy")
    expect(detectOrder(["01/02/2020", "12/15/2018"], "dmy")).toBe("mdy")
    expect(detectOrder(["01/02/2020"], "dmy")).toBe("dmy")
  })

  it("round-trips every calendar day in both orders", () => {
    fc.assert(fc.property(fc.date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(2150, 11, 31)), noInvalidDate: true }), (date) => {
      const iso = date.toISOString().slice(0, 10)
      const [year, month, day] = iso.split("-")
      expect(parseDate(`${day}.${month}.${year}`, "dmy")).toBe(iso)
      expect(parseDate(`${month}/${day}/${year}`, "mdy")).toBe(iso)
      expect(parseOfxDate(`${year}${month}${day}120000[-5:EST]`)).toBe(iso)
    }))
  })
})

describe("OFX reader", () => {
  const read = (text: string) => {
    const reader = Ofx.read(text)
    const lines = []
    for (let line = reader.next(); line !== null; line = reader.next()) lines.push(line)
    return { lines, statements: reader.statements() }
  }

  it("reads unclosed SGML leaves, entities and a bare ampersand", () => {
    const { lines } = read(`OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>9</BANKACCTFROM>
<BANKTRANLIST><STMTTRN><DTPOSTED>20240102<TRNAMT>-1.00<FITID>x1<NAME>Bank&amp;Co<MEMO>A & B</STMTTRN>
<STMTTRN><DTPOSTED>20240103<TRNAMT>2.5<FITID>x2<PAYEE><NAME>Payee Ltd<ADDR1>Street</PAYEE></STMTTRN></BANKTRANLIST>
<LEDGERBAL><BALAMT><DTASOF>20240103</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`)
    expect(lines.map((line) => [line.date, line.amountCents, line.payee, line.memo, line.statementId])).toEqual([
      ["2024-01-02", -100, "Bank&Co", "A & B", "x1"],
      ["2024-01-03", 250, "Payee Ltd", null, "x2"]
    ])
  })

  it("names the line of the transaction with a bad amount", () => {
    expect(() => read("<OFX><STMTRS>\n<BANKTRANLIST>\n<STMTTRN>\n<DTPOSTED>20240102\n<TRNAMT>1.2.3\n</STMTTRN></STMTRS></OFX>"))
      .toThrow(/line 3: the amount \(TRNAMT\) "1.2.3"/u)
  })

  it("never throws anything but an unreadable-statement error on arbitrary input", () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), fc.constantFrom("", "<OFX>", "<OFX><STMTRS><BANKTRANLIST><STMTTRN>"), (noise, prefix) => {
      try {
        read(prefix + noise)
      } catch (error) {
        expect(error).toBeInstanceOf(Error)
        expect((error as Error).constructor.name).toBe("UnreadableStatement")
      }
    }))
  })
})

describe("CSV reader", () => {
  it("detects the separator and the header below a preamble", () => {
    expect(Csv.detectDelimiter("a;b;c\n1;2;3\n")).toBe(";")
    expect(Csv.detectDelimiter("a\tb\n1\t2\n")).toBe("\t")
    const reader = Csv.read("Account;123\n\nDate;Payee;Amount\n01.02.2024;Shop;-12,50\n02.02.2024;Pay;1.000,00\n")
    const lines = [reader.next(), reader.next(), reader.next()]
    expect(lines.map((line) => line && [line.date, line.amountCents])).toEqual([["2024-02-01", -1250], ["2024-02-02", 100000], null])
  })

  it("decodes legacy charsets from base64 and keeps UTF-8 as UTF-8", () => {
    const latin1 = Uint8Array.from([0x43, 0x61, 0x66, 0xe9])
    expect(Text.decodeBytes(latin1)).toBe("Café")
    expect(Text.decodeBytes(new TextEncoder().encode("Café"))).toBe("Café")
    expect(Text.decodeBytes(Uint8Array.from([0x9e]), "windows-1250")).toBe("ž")
  })
})

describe("dedupe", () => {
  it("numbers identical lines of one file by occurrence and ignores masked ids", async () => {
    const counter = Dedupe.occurrenceCounter()
    const line = { date: "2024-01-01", amountCents: -450, payee: "Coffee", memo: null }
    expect([counter(line), counter({ ...line, payee: " coffee " }), counter({ ...line, amountCents: -451 })]).toEqual([1, 2, 1])
    expect(Dedupe.usableStatementId("****")).toBeNull()
    expect(Dedupe.usableStatementId("")).toBeNull()
    expect(Dedupe.usableStatementId(" 123 ")).toBe("123")
  })
})

const rule = (overrides: Partial<BankRule.Rule>): BankRule.Rule => ({
  id: 1,
  name: "r",
  priority: 10,
  createdAt: "2024-01-01T00:00:00.000Z",
  active: true,
  bankAccountId: null,
  payeeContains: null,
  direction: "any",
  amountMinCents: null,
  amountMaxCents: null,
  account: "6000",
  className: null,
  memo: null,
  ...overrides
})

describe("bank rules", () => {
  it("evaluate by priority, then age; the first that matches every condition suggests", () => {
    const line = { bankAccountId: 7, amountCents: -2500, payee: "ACME Software", memo: null }
    const rules = [
      rule({ id: 1, priority: 5, payeeContains: "acme", direction: "in" }),
      rule({ id: 2, priority: 20, payeeContains: "acme" }),
      rule({ id: 3, priority: 10, payeeContains: "ACME", amountMaxCents: 2000 }),
      rule({ id: 4, priority: 20, createdAt: "2023-01-01T00:00:00.000Z", bankAccountId: 7, amountMinCents: 2500 }),
      rule({ id: 5, priority: 0, active: false })
    ]
    expect(BankRule.firstMatch(rules, line)?.id).toBe(4)
    expect(BankRule.firstMatch(rules, { ...line, bankAccountId: 8 })?.id).toBe(2)
  })

  it("the suggestion is the first matching rule in evaluation order, whatever order they come in", () => {
    const arbitraryRule = fc.record({
      id: fc.integer({ min: 1, max: 1_000_000 }),
      priority: fc.integer({ min: -5, max: 5 }),
      createdAt: fc.constantFrom("2024-01-01T00:00:00.000Z", "2024-06-01T00:00:00.000Z"),
      direction: fc.constantFrom("in" as const, "out" as const, "any" as const),
      amountMaxCents: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null })
    })
    fc.assert(fc.property(fc.uniqueArray(arbitraryRule, { selector: (item) => item.id, maxLength: 8 }), cents, (drafts, amount) => {
      const rules = drafts.map((draft) => rule(draft))
      const line = { bankAccountId: 1, amountCents: amount, payee: null, memo: null }
      const found = BankRule.firstMatch([...rules].reverse(), line)
      const matching = rules.filter((candidate) => BankRule.matches(candidate, line)).sort(BankRule.compare)
      expect(found?.id).toBe(matching[0]?.id)
    }))
  })
})

describe("auto-match", () => {
  it("matches only when each side has exactly one candidate", () => {
    const lines = [
      { id: 1, bankAccountId: 1, date: "2024-03-01", amountCents: -500 },
      { id: 2, bankAccountId: 1, date: "2024-03-02", amountCents: 700 },
      { id: 3, bankAccountId: 1, date: "2024-03-02", amountCents: 700 }
    ]
    const candidates = [
      { entryId: 10, date: "2024-03-03", amountCents: -500 },
      { entryId: 11, date: "2024-03-02", amountCents: 700 },
      { entryId: 12, date: "2024-04-30", amountCents: -500 }
    ]
    const decision = AutoMatch.decide(lines, candidates, 3)
    expect(decision.matched).toEqual([{ lineId: 1, entryId: 10 }])
    expect(decision.ambiguous.map((item) => item.lineId)).toEqual([2, 3])
  })

  it("never matches an entry twice, nor across amounts or outside the window", () => {
    const line = fc.record({ id: fc.integer({ min: 1, max: 50 }), date: fc.constantFrom("2024-01-01", "2024-01-03", "2024-01-09"), amountCents: fc.integer({ min: -3, max: 3 }) })
    const entry = fc.record({ entryId: fc.integer({ min: 1, max: 50 }), date: fc.constantFrom("2024-01-01", "2024-01-02", "2024-01-20"), amountCents: fc.integer({ min: -3, max: 3 }) })
    fc.assert(fc.property(
      fc.uniqueArray(line, { selector: (item) => item.id }),
      fc.uniqueArray(entry, { selector: (item) => item.entryId }),
      fc.integer({ min: 0, max: 5 }),
      (rawLines, entries, window) => {
        const lines = rawLines.map((item) => ({ ...item, bankAccountId: 1 }))
        const { matched } = AutoMatch.decide(lines, entries, window)
        expect(new Set(matched.map((match) => match.entryId)).size).toBe(matched.length)
        for (const match of matched) {
          const a = lines.find((item) => item.id === match.lineId)!
          const b = entries.find((item) => item.entryId === match.entryId)!
          expect(a.amountCents).toBe(b.amountCents)
          expect(AutoMatch.daysApart(a.date, b.date)).toBeLessThanOrEqual(window)
        }
      }
    ))
  })

  it("pairs a transfer only between two different accounts, out for in", () => {
    const pairs = AutoMatch.pairTransfers([
      { id: 1, bankAccountId: 1, date: "2024-05-01", amountCents: -10000 },
      { id: 2, bankAccountId: 2, date: "2024-05-02", amountCents: 10000 },
      { id: 3, bankAccountId: 1, date: "2024-05-02", amountCents: 10000 }
    ], 3)
    expect(pairs.map((pair) => [pair.out.id, pair.into.id])).toEqual([[1, 2]])
  })
})

describe("reconciliation arithmetic", () => {
  const item = fc.record({ entryId: fc.integer({ min: 1 }), date: fc.constant("2024-01-31"), amountCents: cents })

  it("cleared plus uncleared is the book balance, and finish is possible exactly at zero difference", () => {
    fc.assert(fc.property(cents, fc.array(item, { maxLength: 20 }), fc.array(item, { maxLength: 20 }), cents, (beginning, cleared, uncleared, ending) => {
      const book = beginning + Reconciliation.sum(cleared) + Reconciliation.sum(uncleared)
      const tie = Reconciliation.tieOut({ beginningCents: beginning, statementEndingCents: ending, cleared, uncleared, bookBalanceCents: book })
      expect(tie.beginning_balance_cents + tie.cleared_deposits_cents + tie.cleared_payments_cents + tie.uncleared_cents).toBe(book)
      expect(Reconciliation.canFinish(ending, beginning, cleared)).toBe(Reconciliation.difference(ending, beginning, cleared) === 0)
      const exact = Reconciliation.clearedBalance(beginning, cleared)
      expect(Reconciliation.canFinish(exact, beginning, cleared)).toBe(true)
      expect(Reconciliation.canFinish(exact + 1, beginning, cleared)).toBe(false)
    }))
  })
})
