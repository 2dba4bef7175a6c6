import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { csvCases } from "./fixtures/csvProfiles.ts"
import { type BankingApp, type Company, makeBankingApp, repositoryFolder } from "./support.ts"

/**
 * Every statement file of the shared fixtures (SOURCES.md) imports over HTTP with the transaction
 * count it holds, or is refused with a clear 422 naming the line and the reason; never a 500.
 * Files go as their bytes in base64, so character sets are read from the files themselves.
 * Importing a file a second time imports nothing.
 */

interface OfxCase {
  readonly file: string
  /** One bank account per account in the file: its mask and the transactions it gets. */
  readonly accounts?: ReadonlyArray<{ readonly mask: string | null; readonly transactions: number }>
  readonly refused?: string
}

const one = (transactions: number) => [{ mask: null, transactions }]

const ofxCases: ReadonlyArray<OfxCase> = [
  { file: "asgrim_ofx-multiple-accounts-xml.ofx", accounts: [{ mask: "8596", transactions: 0 }, { mask: "9855", transactions: 2 }, { mask: "5548", transactions: 1 }] },
  { file: "asgrim_ofxdata-banking-xml200.ofx", refused: "its one transaction is the text *snipped*" },
  { file: "asgrim_ofxdata-bb-two-stmtrs.ofx", accounts: [{ mask: "455000-5", transactions: 0 }, { mask: "655000-2", transactions: 36 }] },
  { file: "asgrim_ofxdata-bpbfc.ofx", accounts: one(6) },
  { file: "asgrim_ofxdata-cmfr.ofx", accounts: one(42) },
  { file: "asgrim_ofxdata-credit-card.ofx", accounts: one(1) },
  { file: "asgrim_ofxdata-emptyDateTime.ofx", accounts: one(2) },
  { file: "asgrim_ofxdata-memoWithAmpersand.ofx", accounts: one(16) },
  { file: "asgrim_ofxdata-memoWithQuotes.ofx", accounts: one(16) },
  { file: "asgrim_ofxdata-oneline.ofx", accounts: one(8) },
  { file: "asgrim_ofxdata-selfclose.ofx", accounts: one(5) },
  { file: "asgrim_ofxdata-xml.ofx", accounts: one(3) },
  { file: "asgrim_ofxdata.ofx", accounts: one(3) },
  { file: "csv2ofx_converted_pcmastercard.ofx", accounts: one(2) },
  { file: "csv2ofx_converted_schwab-checking.ofx", accounts: one(4) },
  { file: "nodeofx_example-xml.qfx", accounts: one(1) },
  { file: "nodeofx_example1.ofx", accounts: one(5) },
  { file: "ofx4j_closing-tags.ofx", refused: "a sign-on response with no statement" },
  { file: "ofx4j_example-response.ofx", accounts: one(1) },
  { file: "ofx4j_pag-seguro.ofx", accounts: one(3) },
  { file: "ofxdataextractor_example.ofx", accounts: [{ mask: "1459950-11", transactions: 18 }, { mask: "123412341234", transactions: 2 }] },
  { file: "ofxdataextractor_example2.ofx", accounts: one(18) },
  { file: "ofxdataextractor_example3.ofx", accounts: one(1) },
  { file: "ofxdataextractor_inline.ofx", accounts: one(1) },
  { file: "ofxjs_credit-card.qfx", accounts: one(5) },
  { file: "ofxjs_example2.ofx", refused: "every date is masked as asterisks" },
  { file: "ofxparse_account_listing_aggregation.ofx", refused: "an account list, not a statement" },
  { file: "ofxparse_anzcc.ofx", accounts: one(1) },
  { file: "ofxparse_bank_medium.ofx", accounts: one(3) },
  { file: "ofxparse_bank_small.ofx", refused: "an empty <OFX></OFX> body" },
  { file: "ofxparse_checking.ofx", accounts: one(3) },
  { file: "ofxparse_error_message.ofx", refused: "the bank answered with error 2000" },
  { file: "ofxparse_failnice_date_missing.ofx", refused: "a transaction without its posting date" },
  { file: "ofxparse_failnice_decimal_error.ofx", refused: "an impossible posting date and a $ amount" },
  { file: "ofxparse_failnice_empty_balance.ofx", accounts: one(1) },
  { file: "ofxparse_fidelity-savings.ofx", accounts: one(4) },
  { file: "ofxparse_multiple_accounts.ofx", accounts: [{ mask: "9100", transactions: 0 }, { mask: "9200", transactions: 0 }] },
  { file: "ofxparse_ofx-v102-empty-tags.ofx", accounts: one(1) },
  { file: "ofxparse_suncorp.ofx", accounts: one(1) },
  { file: "rubyofx_bb.ofx", accounts: one(81) },
  { file: "rubyofx_bradesco.ofx", accounts: one(6) },
  { file: "rubyofx_cef_malformed_decimal.ofx", refused: "an amount that is a lone decimal point" },
  { file: "rubyofx_creditcard.ofx", accounts: one(3) },
  { file: "rubyofx_dtsof_balance_issue.ofx", accounts: one(1) },
  { file: "rubyofx_error.ofx", refused: "the bank refused the sign-on" },
  { file: "rubyofx_invalid_version.ofx", accounts: one(36) },
  { file: "rubyofx_nd-amex-sample.ofx", accounts: [{ mask: "5555", transactions: 11 }, { mask: "4444", transactions: 4 }] },
  { file: "rubyofx_santander.ofx", accounts: one(4) },
  { file: "rubyofx_utf8.ofx", accounts: one(36) },
  { file: "rubyofx_v211.ofx", accounts: [{ mask: "123456", transactions: 1 }, { mask: "123412341234", transactions: 2 }] }
]

let app: BankingApp
let company: Company
let nextCode = 1700

beforeAll(async () => {
  app = await makeBankingApp()
  company = await app.createCompany()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const base64 = (folder: string, file: string) => readFileSync(`${repositoryFolder}test/fixtures/${folder}/${file}`).toString("base64")

/** A fresh ledger account and bank account for one file. */
const bankAccount = async (name: string, mask: string | null, profile?: Record<string, unknown>) => {
  const code = String(nextCode++)
  const account = await app.write("/v1/accounts", company.ownerKey, { code, name: `Bank ${code}`, type: "asset", subtype: "bank" })
  expect(account.status).toBe(201)
  const bank = await app.write("/v1/bank-accounts", company.ownerKey, {
    name: name.slice(0, 200),
    kind: "checking",
    ledger_account: code,
    ...(mask === null ? {} : { mask }),
    ...(profile === undefined ? {} : { csv_profile: profile })
  })
  expect(bank.status).toBe(201)
  return bank.body.id as number
}

const importFile = (bankAccountId: number, format: "ofx" | "qfx" | "csv", content: string, extra: Record<string, unknown> = {}) =>
  app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format, content, content_encoding: "base64", ...extra })

describe("OFX and QFX fixtures", () => {
  for (const testCase of ofxCases) {
    it(`${testCase.file}: ${testCase.refused === undefined ? `${testCase.accounts!.reduce((sum, account) => sum + account.transactions, 0)} transactions` : `refused (${testCase.refused})`}`, async () => {
      const content = base64("ofx", testCase.file)
      const format = testCase.file.endsWith(".qfx") ? "qfx" : "ofx"
      if (testCase.refused !== undefined) {
        const bankAccountId = await bankAccount(testCase.file, null)
        const refused = await importFile(bankAccountId, format, content)
        expect(refused.status).toBe(422)
        expect(refused.body.error.type).toBe("statement_unreadable")
        expect(refused.body.error.message.length).toBeGreaterThan(20)
        expect(refused.body.error.details).toHaveProperty("reason")
        expect(refused.body.error.details).toHaveProperty("line")
        return
      }
      const accounts = testCase.accounts!
      if (accounts.length > 1) {
        // Several accounts and no mask: the person is asked which one.
        const unmasked = await importFile(await bankAccount(`${testCase.file} (no mask)`, null), format, content, { dry_run: true })
        expect(unmasked.status).toBe(422)
        expect(unmasked.body.error.type).toBe("statement_account_ambiguous")
        expect(unmasked.body.error.details.accounts).toHaveLength(accounts.length)
      }
      for (const account of accounts) {
        const bankAccountId = await bankAccount(testCase.file, account.mask)
        const first = await importFile(bankAccountId, format, content, { filename: testCase.file })
        expect(first.status, JSON.stringify(first.body)).toBe(201)
        expect(first.body.lines_read).toBe(account.transactions)
        const lines = await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&limit=1000`, { token: company.ownerKey })
        expect(lines.body.data).toHaveLength(first.body.lines_imported)
        for (const line of lines.body.data) {
          expect(line.payee ?? "").not.toContain("\ufffd")
          expect(line.memo ?? "").not.toContain("\ufffd")
        }
        const second = await importFile(bankAccountId, format, content)
        expect(second.status).toBe(201)
        expect(second.body.lines_imported).toBe(0)
        expect(second.body.duplicates).toBe(account.transactions)
      }
    })
  }

  it("reads the accents of a Windows-1252 statement", async () => {
    const bankAccountId = await bankAccount("bb", null)
    await importFile(bankAccountId, "ofx", base64("ofx", "rubyofx_bb.ofx"))
    const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&limit=1000`, { token: company.ownerKey })).body.data
    const text = lines.map((line: any) => `${line.payee} ${line.memo}`).join(" ")
    expect(text).toMatch(/[çãéáíóúâêõÇÃÉÁÍÓÚÂÊÕ]/u)
  })

  it("dedupes across files holding the same transactions (FITIDs), in SGML and XML", async () => {
    for (const [first, second, overlap] of [
      ["rubyofx_utf8.ofx", "rubyofx_invalid_version.ofx", 36],
      ["asgrim_ofxdata-memoWithAmpersand.ofx", "asgrim_ofxdata-memoWithQuotes.ofx", 16],
      ["asgrim_ofxdata.ofx", "asgrim_ofxdata-xml.ofx", 3],
      ["ofxdataextractor_example2.ofx", "ofxdataextractor_example.ofx", 18]
    ] as const) {
      const bankAccountId = await bankAccount(`${first} + ${second}`, first.startsWith("ofxdataextractor") ? "1459950-11" : null)
      expect((await importFile(bankAccountId, "ofx", base64("ofx", first))).body.lines_imported).toBe(overlap)
      const again = await importFile(bankAccountId, "ofx", base64("ofx", second))
      expect(again.body.lines_imported).toBe(0)
      expect(again.body.duplicates).toBe(overlap)
    }
  })

  it("keeps two identical transactions of one file apart by their occurrence (content hash)", async () => {
    const bankAccountId = await bankAccount("hash", null)
    const statement = (extra: string) => `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-4.50<NAME>Coffee</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-4.50<NAME>Coffee</STMTTRN>${extra}
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`
    const first = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "ofx", content: statement("") })
    expect(first.body.lines_imported).toBe(2)
    const third = "\n<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-4.50<NAME>Coffee</STMTTRN>"
    const overlapping = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "ofx", content: statement(third) })
    expect(overlapping.body.lines_imported).toBe(1)
    expect(overlapping.body.duplicates).toBe(2)
  })
})

describe("CSV fixtures", () => {
  for (const testCase of csvCases) {
    it(`${testCase.file}: ${testCase.refused === undefined ? `${testCase.transactions} transactions` : `refused (${testCase.refused})`}`, async () => {
      const bankAccountId = await bankAccount(testCase.file, null, testCase.profile)
      const content = base64("csv", testCase.file)
      const first = await importFile(bankAccountId, "csv", content, { filename: testCase.file })
      if (testCase.refused !== undefined) {
        expect(first.status).toBe(422)
        expect(first.body.error.type).toBe("statement_unreadable")
        expect(first.body.error.details.line).toBeGreaterThan(0)
        return
      }
      expect(first.status, JSON.stringify(first.body)).toBe(201)
      expect(first.body.lines_read).toBe(testCase.transactions)
      expect(first.body.lines_imported).toBe(testCase.transactions)
      const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&limit=1000`, { token: company.ownerKey })).body.data
      for (const line of lines) {
        expect(line.payee ?? "").not.toContain("\ufffd")
        expect(Number.isSafeInteger(line.amount_cents)).toBe(true)
      }
      const second = await importFile(bankAccountId, "csv", content)
      expect(second.body.lines_imported).toBe(0)
      expect(second.body.duplicates).toBe(testCase.transactions)
    })
  }

  it("asks for a profile when a headerless file names no columns", async () => {
    const bankAccountId = await bankAccount("headerless", null)
    const refused = await importFile(bankAccountId, "csv", base64("csv", "reckon_chase.csv"))
    expect(refused.status).toBe(422)
    expect(refused.body.error.details.reason).toMatch(/csv_profile/u)
  })

  it("names the line of an amount that is not one", async () => {
    const bankAccountId = await bankAccount("bad amount", null)
    const refused = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, {
      format: "csv",
      content: "Date,Description,Amount\n2024-01-02,Coffee,-4.50\n2024-01-03,Tea,four dollars\n"
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error.details.line).toBe(3)
    expect(refused.body.error.message).toContain("four dollars")
  })
})
