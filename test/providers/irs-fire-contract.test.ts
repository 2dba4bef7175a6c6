import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { InformationReturns } from "@ledger/engine/ports"
import { FilingContent } from "@ledger/engine/rules"
import { InformationReturnsHttp } from "@ledger/server"
import { FakeInformationReturns } from "@ledger/testkit"
import { fireProblems, requestProblems, responseProblems } from "../support/providers/irs-fire.ts"
import { recording } from "../support/providers/shopify.ts"

/**
 * Information-return filing's contract (issue 39): every request the real adapter
 * (InformationReturnsHttp) sends to the testkit's fake over HTTP, and every answer, checked against
 * the filing envelope (docs/taxforms.md) and the file it carries against IRS Publication 1220's
 * record layout (test/fixtures/providers/irs-fire). The file is the engine's own (FilingContent).
 */
const person = (name: string, tin: string, individual: boolean) => ({ name, name2: null, address: "12 Main St", city: "Springfield", state: "IL", zip: "62701", tinType: individual ? "SSN" : "EIN", tin, individual })
const content = (test: boolean) => FilingContent.fire({
  year: 2026,
  test,
  payer: { ...person("Mug Shop LLC", "121234567", false), phone: "2175550100", email: "books@mug.test" },
  payees: [
    { contactId: 7, form: "1099-NEC", corrected: "", person: person("Ada Lovelace", "123456789", true), boxes: new Map([["NEC1", 1_250_000]]) },
    { contactId: 8, form: "1099-NEC", corrected: "", person: person("Grace Hopper", "987654321", true), boxes: new Map([["NEC1", 99_900]]) },
    { contactId: 9, form: "1099-MISC", corrected: "", person: person("Landlord Co", "111223333", false), boxes: new Map([["MISC1", 2_400_000], ["MISC10", 50_000]]) }
  ]
}, false)

const setUp = () => {
  const fake = FakeInformationReturns.make()
  const recorded = recording(fake.fetch)
  const layer: Layer.Layer<InformationReturns> = InformationReturnsHttp.layer(fake.baseUrl, "partner-token", recorded.fetch)
  const run = <A, E>(use: (filer: InformationReturns["Service"]) => Effect.Effect<A, E>) =>
    Effect.runPromise(Effect.provide(Effect.gen(function*() {
      return yield* use(yield* InformationReturns)
    }), layer))
  return { fake, run, requests: recorded.requests }
}
const submission = (file: string, test: boolean) => ({ companyId: "c1", filingId: 3, provider: "partner", year: 2026, format: "fire" as const, filename: "1099-2026-filing-3.txt", content: file, test })

describe("information-return filing against Publication 1220 and the filing envelope", () => {
  it("every request of a filing's life and every answer match them", async () => {
    const { fake, run, requests } = setUp()
    expect(fireProblems(content(false))).toEqual([])
    const sent = await run((filer) => filer.submit(submission(content(true), true)))
    expect(sent.status).toBe("submitted")
    fake.answer(sent.reference, { status: "partially_accepted", receiptId: "R-1", rejectedRecords: [4] })
    expect(await run((filer) => filer.status(sent.reference))).toMatchObject({ status: "partially_accepted", receiptId: "R-1", rejectedRecords: [4] })
    fake.scriptTin("987654321", "mismatched")
    expect(await run((filer) => filer.matchTin({ name: "Grace Hopper", tin: "987654321", tinType: "SSN" }))).toMatchObject({ result: "mismatched" })
    fake.failNext()
    expect(await run((filer) => Effect.flip(filer.status(sent.reference)))).toMatchObject({ code: "unavailable" })
    expect(fake.submissions.map((item) => item.content)).toEqual([content(true)])
    expect(requests.length).toBe(4)
    expect(requests.flatMap(requestProblems(fake.baseUrl))).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
  })

  it("a file the publication does not allow is refused by the fake as a transmitter refuses it, and reported by the check", async () => {
    const { run, requests } = setUp()
    const file = content(false)
    const refused = await run((filer) => Effect.flip(filer.submit(submission(file, true))))
    expect(refused.code).toBe("refused")
    expect(refused.message).toContain("test indicator")
    const cut = await run((filer) => Effect.flip(filer.submit(submission(file.slice(0, -1), false))))
    expect(cut.message).toContain("not records of 750")
    expect(requests.flatMap(requestProblems("https://filing.fake/v1"))).toEqual([
      "POST /filings: the file's test indicator \" \" does not say test=true",
      "POST /filings: the file: the file is 6749 positions, not records of 750"
    ])
    expect(requests.flatMap(responseProblems)).toEqual([])
  })

  it("what the layout does not allow is reported field by field", () => {
    const file = content(false)
    const record = (n: number) => file.slice((n - 1) * 750, n * 750)
    const put = (n: number, position: number, text: string) => {
      const at = (n - 1) * 750 + position - 1
      return file.slice(0, at) + text + file.slice(at + text.length)
    }
    // T, A (1099-MISC), B, C, A (1099-NEC), B, B, C, F.
    expect(Array.from({ length: 9 }, (_, index) => record(index + 1)[0]).join("")).toBe("TABCABBCF")
    // A 1099-NEC amount under code 2 (NEC has 1 and 4), a blank TIN, a letter in a zero-filled amount.
    expect(fireProblems(put(6, 67, "000000001000"))).toEqual(["record 6 (B): an amount under code 2, which NE does not have"])
    expect(fireProblems(put(6, 12, "         "))).toEqual(["record 6 (B) TIN (12-20): required, blank"])
    expect(fireProblems(put(6, 55, "00000000100O"))).toEqual(["record 6 (B) PaymentAmount1 (55-66): \"00000000100O\" is not right-justified and zero-filled digits"])
    expect(fireProblems(put(1, 410, "X"))).toEqual(["record 1 (T) Blank3 (409-499): \"X\" where the layout has blanks"])
    expect(requestProblems("https://filing.fake/v1")({ method: "POST", url: "/filings", headers: {}, body: "{}" })).toEqual(["POST /filings: not an absolute URL"])
    expect(requestProblems("https://filing.fake/v1")({ method: "POST", url: "https://filing.fake/v1/tin-matches", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: JSON.stringify({ name: "A", tin: "123-45-6789", tin_type: "SSN" }) })).toEqual([
      "POST /tin-matches: tin \"123-45-6789\" is not nine digits"
    ])
  })

  it("keeps a base URL's path", () => {
    expect(InformationReturnsHttp.endpoint("https://partner.test/irs", "filings").toString()).toBe("https://partner.test/irs/filings")
  })
})
