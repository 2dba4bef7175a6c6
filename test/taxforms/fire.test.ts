import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { FireFile, FireRecords as Records } from "@ledger/engine/rules"
import { ascii, json, payeeOf, payerOf, totalsOf, transmitterOf } from "./fixtures.ts"

/** IRS Publication 1220 records against the moov-io/irs fixtures built from the same inputs. */

describe("Publication 1220 records match the fixtures byte for byte", () => {
  it("T: transmitter", () => {
    expect(Records.transmitter(transmitterOf(json("transmitterRecord")))).toBe(ascii("transmitterRecord"))
  })

  it("A: payer", () => {
    expect(Records.payer(payerOf(json("payerRecord")))).toBe(ascii("payerRecord"))
  })

  it.each(["payeeRecordWith1099Nec", "payeeRecordWith1099Misc"])("B: payee (%s)", (name) => {
    expect(Records.payee(payeeOf(json(name)))).toBe(ascii(name))
  })

  it("C: end of payer", () => {
    expect(Records.endOfPayer(totalsOf(json("endPayerRecord")))).toBe(ascii("endPayerRecord"))
  })

  it("K: state totals, but for the two fields moov-io writes unlike Publication 1220", () => {
    const source = json("stateRecord")
    const written = Records.stateTotals({ ...totalsOf(source), stateTaxWithheld: 2, localTaxWithheld: 3, combinedFederalStateCode: 1 })
    const fixture = ascii("stateRecord")
    expect(written.length).toBe(750)
    // Positions 1-706 and 743-746 are identical.
    expect(written.slice(0, 706)).toBe(fixture.slice(0, 706))
    expect(written.slice(742, 746)).toBe(fixture.slice(742, 746))
    // moov-io left-justifies the withheld totals ("2" + blanks) and writes the state's letters
    // ("AL") in 747-748; the publication has them right-justified and zero-filled, and the
    // two-digit numeric code of the state (01 for Alabama). Same values, the publication's form.
    expect(Number(Records.field(fixture, 707, 18))).toBe(Number(written.slice(706, 724)))
    expect(written.slice(706, 724)).toBe("000000000000000002")
    expect(Number(Records.field(fixture, 725, 18))).toBe(Number(written.slice(724, 742)))
    expect(Records.field(fixture, 747, 2)).toBe("AL")
    expect(written.slice(746, 748)).toBe("01")
  })

  it("F: end of transmission", () => {
    const f = json("endTransmitterRecord")
    expect(Records.endOfTransmission({ payerCount: f.number_of_payer_records, payeeCount: f.total_number_of_payees, sequence: f.record_sequence_number }))
      .toBe(ascii("endTransmitterRecord"))
  })
})

describe("a whole file", () => {
  const source = json("oneTransactionFile")
  const person = source.payment_persons[0]
  const payer = payerOf(person.payer)
  const input: FireFile.Input = {
    paymentYear: 2017,
    transmitter: transmitterOf(source.transmitter),
    payers: [{
      payer,
      payees: person.payees.map(payeeOf),
      states: [{ code: 1, stateTaxWithheld: 2, localTaxWithheld: 3 }]
    }]
  }

  it("T, A, B, B, C and F are the fixture's records, in order, with its sequence numbers", () => {
    const built = Records.split(FireFile.build(input))
    const fixture = Records.split(ascii("oneTransactionFile"))
    expect(built.map((record) => record[0]).join("")).toBe("TABBCKF")
    for (const index of [0, 1, 2, 3, 4, 6]) expect(built[index], `record ${index + 1}`).toBe(fixture[index])
    expect(built[5]!.slice(0, 706)).toBe(fixture[5]!.slice(0, 706))
  })

  it("passes the length, sequence and control-total check; the fixture does too", () => {
    expect(FireFile.check(FireFile.build(input))).toEqual([])
    expect(FireFile.check(ascii("oneTransactionFile"))).toEqual([])
  })

  it("a changed control total is caught", () => {
    const file = FireFile.build(input)
    const at = 4 * 750 + 15 + 6 * 18 + 17
    const broken = file.slice(0, at) + "9" + file.slice(at + 1)
    expect(FireFile.check(broken).join("; ")).toMatch(/total 7/)
  })
})

// Names and addresses as the generator is given them: trimmed (FilingContent.ts).
const text = fc.string({ maxLength: 60 }).map((value) => value.trim())
const payeeArbitrary = fc.record({
  corrected: fc.constantFrom("" as const, "G" as const, "C" as const),
  nameControl: fc.stringMatching(/^[A-Z0-9]{0,4}$/),
  typeOfTin: fc.constantFrom("1" as const, "2" as const, "" as const),
  tin: fc.stringMatching(/^\d{9}$/),
  amounts: fc.record({ 1: fc.integer({ min: 0, max: 99_999_999_999 }), A: fc.integer({ min: 0, max: 99_999_999_999 }) }),
  foreignCountry: fc.boolean(),
  name: text,
  address: text,
  city: text,
  state: fc.stringMatching(/^[A-Z]{2}$/),
  zip: fc.stringMatching(/^\d{5}(\d{4})?$/),
  secondTinNotice: fc.boolean(),
  directSales: fc.boolean(),
  stateTaxWithheld: fc.nat({ max: 999_999 }),
  localTaxWithheld: fc.nat({ max: 999_999 }),
  combinedFederalStateCode: fc.constant(0)
})

describe("properties of every file the generator writes", () => {
  const payer = payerOf(json("payerRecord"))
  const transmitter = transmitterOf(json("transmitterRecord"))
  const files = fc.array(fc.array(payeeArbitrary, { maxLength: 6 }), { minLength: 1, maxLength: 3 }).map((groups) =>
    FireFile.build({ paymentYear: 2025, transmitter, payers: groups.map((payees) => ({ payer, payees })) }))

  it("every record is exactly 750 bytes of printable ASCII, and the whole passes the check", () => {
    fc.assert(fc.property(files, (file) => {
      expect(file.length % 750).toBe(0)
      for (const record of Records.split(file)) {
        expect(record.length).toBe(750)
        expect(record).toMatch(/^[\x20-\x7E]{750}$/)
      }
      expect(FireFile.check(file)).toEqual([])
    }))
  })

  it("each C record's totals equal its B records' amounts, code by code", () => {
    fc.assert(fc.property(fc.array(payeeArbitrary, { maxLength: 8 }), (payees) => {
      const records = Records.split(FireFile.build({ paymentYear: 2025, transmitter, payers: [{ payer, payees }] }))
      const c = records.find((record) => record[0] === "C")!
      expect(Number(c.slice(15, 33))).toBe(payees.reduce((sum, payee) => sum + payee.amounts[1], 0))
      expect(Number(c.slice(15 + 9 * 18, 15 + 10 * 18))).toBe(payees.reduce((sum, payee) => sum + payee.amounts.A, 0))
    }))
  })

  it("a B record read back and written again is the same bytes (fixtures and generated)", () => {
    // The forms Ledger files; 1099-INT, -DIV, -B and -K lay out positions 544-722 their own way.
    for (const name of ["payeeRecordWith1099Nec", "payeeRecordWith1099Misc"]) {
      const fixture = ascii(name)
      expect(Records.payee(Records.readPayee(fixture)), name).toBe(fixture)
    }
    fc.assert(fc.property(payeeArbitrary, fc.integer({ min: 1, max: 99_999_999 }), (payee, sequence) => {
      const record = Records.payee({ ...payee, paymentYear: 2025, sequence })
      expect(Records.payee(Records.readPayee(record))).toBe(record)
    }))
  })

  it("a number too large for its field is refused, never cut", () => {
    expect(() => Records.endOfPayer({ payeeCount: 1, totals: { 1: 10 ** 18 }, sequence: 1 })).toThrow(RangeError)
  })
})
