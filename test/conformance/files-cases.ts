import { readFileSync } from "node:fs"
import { deflateSync } from "node:zlib"
import { extractText, getDocumentProxy } from "unpdf"
import { expect } from "vitest"
import { isPdf, signInAs, type TestApp } from "../support/index.ts"

/**
 * The file operations of files.test.ts: how each is asked for, how its JSON envelope is asked
 * for, and what its bytes must hold; and the books and records that give each something to answer.
 */

export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
export const pdfText = async (bytes: Uint8Array) => (await extractText(await getDocumentProxy(bytes.slice()), { mergePages: true })).text as string

/** A small valid PNG, `width` x `height`, one colour. */
const png = (width: number, height: number): Uint8Array => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, "latin1"), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)])))
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ]))
}

/** One file operation's request and what its file must hold. */
export interface Case {
  /** The request that answers the file (format given or defaulted). */
  readonly path: () => string
  /** The media type (without parameters) the file comes with. */
  readonly type: string
  /** The same file in its JSON envelope. */
  readonly envelope: () => string
  /** Checks the bytes: a CSV's header row, a PDF's text. */
  readonly check: (bytes: Uint8Array) => Promise<void> | void
  /** A request without `format` that asks by `Accept` (when `format` chooses between data and the file). */
  readonly byAccept?: () => string
  /**
   * Two requests draw two PDFs that differ in their dates (pdf-lib's wall-clock metadata, not the
   * request's time): the envelope is compared by its text instead of byte for byte.
   */
  readonly drawnEachTime?: true
}

/** The ids of what `seed` made, for the cases' paths. */
export const ids: Record<string, number> = {}
const logo = png(40, 20)
const receiptPdf = new Uint8Array(readFileSync(new URL("../fixtures/pdf/invoice2data_oyo.pdf", import.meta.url)))

const csvHeader = (first: string) => (bytes: Uint8Array) => {
  expect(text(bytes).split("\r\n")[0]).toBe(first)
}
const pdfWith = (phrase: string) => async (bytes: Uint8Array) => {
  expect(isPdf(bytes)).toBe(true)
  expect(await pdfText(bytes)).toContain(phrase)
}

const report = (name: string, query: string, header: string): Case => ({
  path: () => `/v1/reports/${name}?${query}&format=csv`,
  type: "text/csv",
  envelope: () => `/v1/reports/${name}?${query}&format=csv`,
  check: csvHeader(header),
  byAccept: () => `/v1/reports/${name}?${query}`
})

/** One case per operation that declares files, by id. */
export const cases: Record<string, Case> = {
  getTrialBalance: report("trial-balance", "as_of=2026-03-31", "Code,Name,Type,Debit,Credit"),
  getProfitAndLoss: report("profit-and-loss", "from=2026-01-01&to=2026-03-31", "Section,Code,Name,Amount"),
  getBalanceSheet: report("balance-sheet", "as_of=2026-03-31", "Section,Code,Name,Balance"),
  getGeneralLedger: report("general-ledger", "from=2026-01-01&to=2026-03-31",
    "Account Code,Account Name,Date,Entry ID,Line,Source,Memo,Class,Debit,Credit,Balance"),
  getArAging: {
    path: () => "/v1/reports/ar-aging?as_of=2026-03-31&format=csv",
    type: "text/csv",
    envelope: () => "/v1/reports/ar-aging?as_of=2026-03-31&format=csv",
    check: (bytes) => expect(text(bytes)).toContain("Files Customer"),
    byAccept: () => "/v1/reports/ar-aging?as_of=2026-03-31"
  },
  getApAging: {
    path: () => "/v1/reports/ap-aging?as_of=2026-03-31&format=csv",
    type: "text/csv",
    envelope: () => "/v1/reports/ap-aging?as_of=2026-03-31&format=csv",
    check: (bytes) => expect(text(bytes).split("\r\n").length).toBeGreaterThan(1),
    byAccept: () => "/v1/reports/ap-aging?as_of=2026-03-31"
  },
  getReconciliationReport: {
    path: () => `/v1/reconciliations/${ids.reconciliation}/report?format=csv`,
    type: "text/csv",
    envelope: () => `/v1/reconciliations/${ids.reconciliation}/report?format=csv`,
    check: csvHeader("section,entry_id,date,amount,memo,bank_line_id"),
    byAccept: () => `/v1/reconciliations/${ids.reconciliation}/report`
  },
  getOnlinePayout: {
    path: () => `/v1/online-payments/payouts/${ids.payout}?format=csv`,
    type: "text/csv",
    envelope: () => `/v1/online-payments/payouts/${ids.payout}?format=csv`,
    check: (bytes) => expect(text(bytes)).toBe("type,source,amount,fee,net\r\ncharge,ch_files_1,100.00,3.20,96.80\r\n"),
    byAccept: () => `/v1/online-payments/payouts/${ids.payout}`
  },
  getCryptoGains: {
    path: () => "/v1/crypto/gains?from=2026-01-01&to=2026-03-31&format=csv",
    type: "text/csv",
    envelope: () => "/v1/crypto/gains?from=2026-01-01&to=2026-03-31&format=csv",
    check: csvHeader("disposal_id,lot_id,asset,kind,acquired,disposed,quantity,proceeds,cost,gain,term"),
    byAccept: () => "/v1/crypto/gains?from=2026-01-01&to=2026-03-31"
  },
  getTaxTrialBalance: {
    path: () => "/v1/tax/trial-balance?as_of=2026-03-31&return_type=SCHC&format=csv",
    type: "text/csv",
    envelope: () => "/v1/tax/trial-balance?as_of=2026-03-31&return_type=SCHC&format=csv",
    check: (bytes) => expect(text(bytes)).toContain("Total"),
    byAccept: () => "/v1/tax/trial-balance?as_of=2026-03-31&return_type=SCHC"
  },
  exportTaxReturn: {
    path: () => "/v1/tax/export?package=generic&as_of=2026-03-31",
    type: "text/csv",
    envelope: () => "/v1/tax/export?package=generic&as_of=2026-03-31&format=base64",
    // Each export is a new version of the same books: the same bytes each time.
    check: (bytes) => expect(text(bytes)).toContain("6020")
  },
  getDocumentPdf: {
    path: () => `/v1/documents/${ids.invoice}/pdf`,
    type: "application/pdf",
    envelope: () => `/v1/documents/${ids.invoice}/pdf?format=base64`,
    check: pdfWith("Garden design")
  },
  getEstimatePdf: {
    path: () => `/v1/estimates/${ids.estimate}/pdf?format=pdf`,
    type: "application/pdf",
    envelope: () => `/v1/estimates/${ids.estimate}/pdf?format=base64`,
    check: pdfWith("Pond survey")
  },
  previewCompanyProfile: {
    path: () => "/v1/company/profile/preview?kind=invoice",
    type: "application/pdf",
    envelope: () => "/v1/company/profile/preview?kind=invoice&format=base64",
    check: pdfWith("INVOICE")
  },
  getCompanyLogo: {
    path: () => "/v1/company/profile/logo",
    type: "image/png",
    envelope: () => "/v1/company/profile/logo?format=base64",
    check: (bytes) => expect(Buffer.from(bytes).equals(Buffer.from(logo))).toBe(true)
  },
  getReceiptFile: {
    path: () => `/v1/receipts/${ids.receipt}/file`,
    type: "application/pdf",
    envelope: () => `/v1/receipts/${ids.receipt}/file?format=base64`,
    check: (bytes) => expect(Buffer.from(bytes).equals(Buffer.from(receiptPdf))).toBe(true)
  },
  getAiConsent: {
    path: () => `/v1/company/ai-consents/${ids.consent}?format=pdf`,
    type: "application/pdf",
    envelope: () => `/v1/company/ai-consents/${ids.consent}?format=base64`,
    check: pdfWith("CONSENT TO DISCLOSE TAX RETURN INFORMATION"),
    byAccept: () => `/v1/company/ai-consents/${ids.consent}`
  },
  getAiConsentSignedPdf: {
    path: () => `/v1/company/ai-consents/${ids.consent}/signed-pdf`,
    type: "application/pdf",
    envelope: () => `/v1/company/ai-consents/${ids.consent}/signed-pdf?format=base64`,
    check: (bytes) => expect(Buffer.from(bytes).equals(Buffer.from(receiptPdf))).toBe(true)
  },
  getRecipientCopies: {
    path: () => `/v1/tax-forms/filings/${ids.filing}/recipient-copies`,
    type: "application/pdf",
    envelope: () => `/v1/tax-forms/filings/${ids.filing}/recipient-copies?format=base64`,
    check: pdfWith("Form 1099-NEC"),
    drawnEachTime: true
  },
  getFiledCopy: {
    path: () => `/v1/tax-forms/filings/${ids.filing}/filed`,
    type: "text/plain",
    envelope: () => `/v1/tax-forms/filings/${ids.filing}/filed?format=json`,
    check: (bytes) => expect(text(bytes).toUpperCase()).toContain("DANA DESIGNER")
  },
  getMileageLog: {
    path: () => "/v1/mileage/log?year=2026&format=pdf",
    type: "application/pdf",
    envelope: () => "/v1/mileage/log?year=2026&format=base64",
    check: pdfWith("Mileage log 2026"),
    byAccept: () => "/v1/mileage/log?year=2026"
  }
}

/** The mileage log's CSV is a second file of the same operation. */
export const mileageCsv: Case = {
  path: () => "/v1/mileage/log?year=2026&format=csv",
  type: "text/csv",
  envelope: () => "/v1/mileage/log?year=2026&format=csv",
  check: csvHeader("Date,Vehicle,From,To,Purpose,Kind,Miles one way,Round trip,Miles,Trip id,Replaces trip")
}

/** A company's books and records for every case; `post` writes as its owner and answers the body. */
export const seed = async (app: TestApp, companyId: string, post: (path: string, body: unknown) => Promise<any>) => {
  // Books for the reports, the tax files and the reconciliation.
  await post("/v1/journal-entries/propose", {
    entry_date: "2026-02-01", memo: "Owner's money", lines: [{ account: "1010", debit_cents: 500_000 }, { account: "3010", credit_cents: 500_000 }]
  })
  const customer = await post("/v1/contacts", { kind: "customer", name: "Files Customer", email: "ap@customer.test" })
  ids.invoice = (await post("/v1/invoices", {
    contact_id: customer.id, doc_date: "2026-03-01", lines: [{ description: "Garden design", amount_cents: 120_000 }]
  })).id
  ids.estimate = (await post("/v1/estimates", {
    contact_id: customer.id, estimate_date: "2026-03-01", expiry_date: "2026-03-31", lines: [{ description: "Pond survey", amount_cents: 40_000 }]
  })).id
  const bank = await post("/v1/bank-accounts", { name: "Checking", kind: "checking", ledger_account: "1010" })
  ids.reconciliation = (await post(`/v1/bank-accounts/${bank.id}/reconciliations`, { statement_date: "2026-03-31", statement_ending_balance_cents: 500_000 })).id

  // 1099s: a vendor paid over the threshold, a filing approved and sent (a FIRE text file).
  await post("/v1/tax-forms/payer", {
    name: "Files Co", address1: "1 Main Street", city: "Springfield", state: "IL", zip: "62701", phone: "217-555-0100", tin_type: "EIN", tin: "12-3456789"
  })
  const vendor = await post("/v1/contacts", { kind: "vendor", name: "Dana Designer", email: "dana@example.com", is_1099: true })
  await post(`/v1/vendors/${vendor.id}/tax-profile`, {
    legal_name: "Dana Designer", tax_class: "individual", address1: "22 Oak Lane", city: "Madison", state: "WI", zip: "53703", tin_type: "SSN", tin: "123-45-6789"
  })
  const bill = await post("/v1/bills", { contact_id: vendor.id, doc_date: "2026-02-10", lines: [{ amount_cents: 250_000, account: "6020" }] })
  await post("/v1/payments/made", { contact_id: vendor.id, payment_date: "2026-02-10", account: "1010", applications: [{ document_id: bill.id, amount_cents: 250_000 }] })
  const filing = await post("/v1/tax-forms/filings", { year: 2026, provider: "partner_mock" })
  ids.filing = filing.id
  await post(`/v1/tax-forms/filings/${filing.id}/approve`, { preview_sha256: filing.preview_sha256 })

  // The tax export needs every account with a balance mapped.
  await post("/v1/tax/profile", { return_type: "SCHC" })
  await post("/v1/tax/mapping/defaults", {})

  // Crypto: the add-on on, so the gains report answers (no disposals: the header row). Its
  // settings are for the owner signed in (a session, never a key).
  await app.query("UPDATE companies SET crypto_addon = true WHERE company_id = $1", [companyId])
  const ownerId = (await app.query<{ id: unknown }>("SELECT id FROM users WHERE company_id = $1 AND role = 'owner' ORDER BY id LIMIT 1", [companyId]))[0]!.id
  const { secret } = await signInAs(app, { companyId, ownerId: Number(ownerId) })
  const crypto = await app.call("POST", "/v1/crypto/settings", { token: secret, body: { enabled: true } })
  if (crypto.status !== 200) throw new Error(`crypto settings: ${crypto.status} ${JSON.stringify(crypto.body)}`)

  // The logo, a receipt, a consent with a paper-signed upload, and a trip.
  await post("/v1/company/profile/logo", { content_base64: Buffer.from(logo).toString("base64"), file_name: "logo.png" })
  ids.receipt = (await post("/v1/receipts", { file_name: "oyo.pdf", content_base64: Buffer.from(receiptPdf).toString("base64") })).id
  ids.consent = (await post("/v1/company/ai-consents", { providers: ["provider_a"], data_categories: ["books"], purposes: ["bookkeeping"] })).id
  await post(`/v1/company/ai-consents/${ids.consent}/upload`, {
    pdf_base64: Buffer.from(receiptPdf).toString("base64"), signed_on: "2026-01-05", signed_by: "Pat Owner", attest: true, accepted_providers: ["provider_a"]
  })
  // A payout the processor reported (written as its sync would: the processor is not the subject).
  const payout = await app.query<{ id: string }>(
    `INSERT INTO online_payouts (company_id, processor_payout_id, amount_cents, arrival_date, status, lines, created_at)
     VALUES ($1, 'po_files_1', 9680, '2026-03-05', 'paid', $2::jsonb, now()) RETURNING id`,
    [companyId, JSON.stringify([{ type: "charge", source: "ch_files_1", amount_cents: 10_000, fee_cents: 320, net_cents: 9680 }])]
  )
  ids.payout = Number(payout[0]!.id)
  const car = await post("/v1/mileage/vehicles", { name: "Blue hatchback", ownership: "owned", in_service_date: "2024-05-01" })
  await post("/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-03", from_place: "Office", to_place: "Client", miles: 12.3, purpose: "Site visit" })
}
