import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Sales } from "@ledger/api"
import { Base64 } from "effect/encoding"
import { titles } from "./DocumentResolution.ts"
import { isCashDocument } from "./DocumentStatus.ts"
import { Branding } from "../../profile/index.ts"
import * as Pdf from "../common/Pdf.ts"

/** The company profile's letterhead (read through the profile area), for documents the company issues. */
const letterheadOf = Effect.fn("DocumentPdf.letterhead")(function*(company: string, companyName: string) {
  return Branding.letterhead(yield* Branding.forDocuments(company), companyName)
})

const companyAndContact = Effect.fn("DocumentPdf.names")(function*(company: string, contactId: number) {
  const sql = yield* SqlClient.SqlClient
  const companies = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  const contacts = yield* sql<{ name: string; email: string | null }>`SELECT name, email FROM contacts
    WHERE company_id = ${company} AND id = ${contactId}`.pipe(Effect.orDie)
  return { companyName: companies[0]?.name ?? "", contactName: contacts[0]?.name ?? "", contactEmail: contacts[0]?.email ?? null }
})

const lineOf = (line: { description: string | null; quantity: string | null; unit_price_cents: number | null; amount_cents: number }) => ({
  description: line.description ?? "",
  quantity: line.quantity,
  unitPriceCents: line.unit_price_cents,
  amountCents: line.amount_cents
})

const taxOf = (tax: { name: string; rate_percent: string; tax_cents: number }) => ({ label: `${tax.name} (${tax.rate_percent}%)`, cents: tax.tax_cents })

/** A document's PDF; `at` is when it is made (the request's or the worker's time). */
export const forDocument = Effect.fn("DocumentPdf.forDocument")(function*(company: string, document: Sales.Documents.Document, at: string) {
  const names = yield* companyAndContact(company, document.contact_id)
  const kind = document.kind as keyof typeof titles
  const purchases = document.side === "purchases"
  // A bill or vendor credit is the vendor's document, recorded here: it carries no letterhead of ours.
  const letterhead = purchases ? null : yield* letterheadOf(company, names.companyName)
  const bytes = yield* Pdf.render({
    title: titles[kind],
    number: document.number,
    companyName: names.companyName,
    letterhead,
    contactLabel: purchases ? "Vendor" : isCashDocument(kind) ? "Customer" : "Bill to",
    contactName: names.contactName,
    contactEmail: names.contactEmail,
    dates: [
      ["Date", document.doc_date],
      ...(document.due_date === null ? [] : [["Due", document.due_date] as const])
    ],
    lines: document.lines.map(lineOf),
    subtotalCents: document.subtotal_cents,
    taxLines: document.tax_lines.map(taxOf),
    totalCents: document.total_cents,
    paidCents: isCashDocument(kind) ? null : document.applied_cents,
    balanceCents: isCashDocument(kind) ? null : document.open_balance_cents,
    memo: document.memo,
    status: document.status,
    createdAt: at
  })
  return { filename: `${document.number}.pdf`, bytes }
})

export const forEstimate = Effect.fn("DocumentPdf.forEstimate")(function*(company: string, estimate: Sales.Estimates.Estimate, at: string) {
  const names = yield* companyAndContact(company, estimate.contact_id)
  const bytes = yield* Pdf.render({
    title: "Estimate",
    number: estimate.number,
    companyName: names.companyName,
    letterhead: yield* letterheadOf(company, names.companyName),
    contactLabel: "For",
    contactName: names.contactName,
    contactEmail: names.contactEmail,
    dates: [
      ["Date", estimate.estimate_date],
      ...(estimate.expiry_date === null ? [] : [["Valid until", estimate.expiry_date] as const])
    ],
    lines: estimate.lines.map(lineOf),
    subtotalCents: estimate.subtotal_cents,
    taxLines: estimate.tax_lines.map(taxOf),
    totalCents: estimate.total_cents,
    paidCents: null,
    balanceCents: null,
    memo: estimate.memo,
    status: estimate.status,
    createdAt: at
  })
  return { filename: `${estimate.number}.pdf`, bytes }
})

export const toWire = (file: { readonly filename: string; readonly bytes: Uint8Array }) => ({
  filename: file.filename,
  content_type: "application/pdf" as const,
  size_bytes: file.bytes.byteLength,
  content_base64: Base64.encode(file.bytes)
})
