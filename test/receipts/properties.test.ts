import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InboxRules, ReceiptRules, ReceiptTextFields as TextFields } from "@ledger/engine/rules"
import { type Company, jpeg, makeReceiptsApp, png, type ReceiptsApp } from "./support.ts"

/** Properties of receipts: deduplication over HTTP, and the pure rules (scoring, merging, names, amounts). */

let app: ReceiptsApp
let company: Company

beforeAll(async () => {
  app = await makeReceiptsApp({ reader: false })
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("deduplication", () => {
  it("gives one receipt per distinct file, whatever the order and repeats of the uploads", async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom("png", "jpeg"), seed: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 6 }),
        async (files) => {
          for (const file of files) {
            const bytes = file.kind === "png" ? png(2, 2, 200 + file.seed) : jpeg(200 + file.seed)
            const name = `${file.kind}-${file.seed}`
            const result = await app.upload(company, bytes, `${name}.bin`)
            expect(result.status).toBe(201)
            const known = seen.get(name)
            expect(result.body.created).toBe(known === undefined)
            if (known !== undefined) expect(result.body.id).toBe(known)
            seen.set(name, result.body.id)
          }
        }
      ),
      { numRuns: 8 }
    )
    const rows = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM receipts WHERE company_id = $1", [company.companyId])
    expect(rows[0]!.n).toBe(seen.size)
  })
})

describe("rules", () => {
  const day = fc.integer({ min: 0, max: 3000 }).map((n) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10))

  it("scores a line by its reasons only, and an exact amount always beats no amount", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), day, day, fc.integer({ min: -10_000_000, max: 10_000_000 }), (total, date, lineDate, amount) => {
      const scored = ReceiptRules.scoreLine({ totalCents: total, date, vendor: null }, { id: 1, date: lineDate, amountCents: amount, payee: null }, 7)
      expect(scored.reasons.includes("amount")).toBe(amount === -total)
      expect(scored.score === 0).toBe(scored.reasons.length === 0)
      const exact = ReceiptRules.scoreLine({ totalCents: total, date, vendor: null }, { id: 1, date: lineDate, amountCents: -total, payee: null }, 7)
      expect(exact.score).toBeGreaterThan(25)
    }))
  })

  it("never overwrites a field a person edited when the receipt is read again", () => {
    const field = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null })
    fc.assert(fc.property(field, field, fc.subarray([...ReceiptRules.fieldNames]), (current, reading, edited) => {
      const before = { ...ReceiptRules.emptyFields, total_cents: current, tax_cents: current }
      const merged = ReceiptRules.merge(before, { total_cents: reading, tax_cents: reading }, edited)
      for (const name of ["total_cents", "tax_cents"] as const) {
        expect(merged[name]).toBe(edited.includes(name) || reading === null ? current : reading)
      }
    }))
  })

  it("reads any amount written with two decimals back to the same cents", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999_99 }), (value) => {
      const whole = Math.floor(value / 100).toLocaleString("en-US")
      const text = `Total $${whole}.${String(value % 100).padStart(2, "0")}`
      expect(TextFields.read(text).total_cents).toBe(value)
    }))
  })

  it("takes a printed subtotal as printed, and otherwise the total less the tax, never a guess without a tax line", () => {
    const amount = (cents: number) => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), fc.option(fc.integer({ min: 0, max: 1_000_000 })), (net, tax, printed) => {
      const total = net + tax
      const lines = [...(printed === null ? [] : [`Subtotal ${amount(printed)}`]), `Tax ${amount(tax)}`, `Total ${amount(total)}`]
      expect(TextFields.read(lines.join("\n")).subtotal_cents).toBe(printed ?? net)
      expect(TextFields.read(`Total ${amount(total)}`).subtotal_cents).toBeNull()
    }))
  })

  it("refuses a slug whose skeleton is a reserved name's, and accepts valid names otherwise", () => {
    const letters = fc.stringMatching(/^[a-z0-9]{3,12}$/)
    fc.assert(fc.property(letters, (slug) => {
      const verdict = InboxRules.judgeSlug(slug)
      const reservedShape = InboxRules.reservedSlugs.some((name) => InboxRules.skeleton(name) === InboxRules.skeleton(slug))
      expect(verdict === "reserved" || verdict === "lookalike").toBe(reservedShape || slug.startsWith("r-"))
    }))
    expect(InboxRules.judgeSlug("adm1n")).toBe("lookalike")
    expect(InboxRules.judgeSlug("-abc")).toBe("invalid")
  })

  it("matches allowed senders by address or by exact domain", () => {
    expect(InboxRules.senderAllowed("AP@Vendor.Example", ["ap@vendor.example"])).toBe(true)
    expect(InboxRules.senderAllowed("x@vendor.example", ["@vendor.example"])).toBe(true)
    expect(InboxRules.senderAllowed("x@evil.vendor.example", ["@vendor.example"])).toBe(false)
    expect(InboxRules.senderAllowed("x@vendor.example.evil", ["@vendor.example"])).toBe(false)
  })

  it("believes only the trusted verifier's authentication results", () => {
    const headers = ["evil.example; spf=pass; dkim=pass; dmarc=pass", "mx.ledger.test; spf=fail smtp.mailfrom=a@b; dkim=none; dmarc=fail"]
    const results = InboxRules.parseAuthenticationResults(headers, "mx.ledger.test")
    expect(results).toEqual({ spf: "fail", dkim: "none", dmarc: "fail" })
    expect(InboxRules.authenticated(results)).toBe(false)
    expect(InboxRules.parseAuthenticationResults(headers, null)).toEqual({ spf: "none", dkim: "none", dmarc: "none" })
  })
})
