import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, createPerson, getFile, isPdf, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) =>
  app.call("POST", path, { token, key: newKey(), body, headers })
const get = (company: TestCompany, path: string, token = company.ownerKey) => app.call("GET", path, { token })
const ok = async (company: TestCompany, path: string, body: unknown, status = 201) => {
  const result = await post(company, path, body)
  if (result.status !== status) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}

/** A vehicle with a year of trips whose deduction is worked by hand below. */
const setUp = async (name: string) => {
  const company = await app.createCompany({ name })
  const car = await ok(company, "/v1/mileage/vehicles", { name: "Blue hatchback", ownership: "owned", in_service_date: "2024-05-01" })
  await ok(company, `/v1/mileage/vehicles/${car.id}/accounts`, { accounts: ["6240"] }, 200)
  await ok(company, `/v1/mileage/vehicles/${car.id}/odometer`, { tax_year: 2026, start_miles: 10_000, end_miles: 12_000 }, 200)
  const trip = (body: Record<string, unknown>) => ok(company, "/v1/mileage/trips", { vehicle_id: car.id, from_place: "Office", ...body })
  const t1 = await trip({ trip_date: "2026-03-03", to_place: "Acme Ltd", miles: 12.3, round_trip: true, purpose: "Quarterly review with Acme" })
  const t2 = await trip({ trip_date: "2026-03-04", to_place: "Supply depot", miles: 40.5, purpose: "Pick up shelving" })
  const t3 = await trip({ trip_date: "2026-03-05", to_place: "Home", miles: 30, kind: "personal" })
  const recurring = await ok(company, "/v1/mileage/recurring", {
    vehicle_id: car.id, from_place: "Office", to_place: "Bank", miles: 8.5, round_trip: true, purpose: "Deposit receipts",
    frequency: "monthly", day_of_month: 10, start_date: "2026-01-10"
  })
  return { company, car, t1, t2, t3, recurring }
}

describe("mileage", () => {
  it("keeps the tax authority's records: tenths, round trips doubled, a purpose for business, never edited", async () => {
    const { company, car, t1, t3 } = await setUp("Mileage records")
    expect(t1).toMatchObject({ miles: 12.3, round_trip: true, total_miles: 24.6, total_tenths: 246, kind: "business", status: "logged" })
    const noPurpose = await post(company, "/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-06", from_place: "A", to_place: "B", miles: 5 })
    expect(noPurpose.status).toBe(422)
    const twoDecimals = await post(company, "/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-06", from_place: "A", to_place: "B", miles: 5.25, purpose: "x" })
    expect(twoDecimals.status).toBe(400)
    const dry = await post(company, "/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-06", from_place: "A", to_place: "B", miles: 5, purpose: "x", dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body.trip.total_tenths).toBe(50)

    const corrected = await ok(company, `/v1/mileage/trips/${t3.id}/correct`, {
      vehicle_id: car.id, trip_date: "2026-03-05", from_place: "Office", to_place: "Home", miles: 30.5, kind: "personal", reason: "Odometer said 30.5"
    })
    expect(corrected).toMatchObject({ replaces_trip_id: t3.id, miles: 30.5, status: "logged" })
    const original = (await get(company, `/v1/mileage/trips?include_voided=true&kind=personal`)).body.data
    expect(original.find((trip: any) => trip.id === t3.id)).toMatchObject({ status: "void", replaced_by_trip_id: corrected.id })
    expect((await get(company, "/v1/mileage/trips?kind=personal")).body.data.map((trip: any) => trip.id)).toEqual([corrected.id])
    const again = await post(company, `/v1/mileage/trips/${t3.id}/void`, { reason: "twice" })
    expect(again.body.error.type).toBe("already_void")

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const proposed = await post(company, "/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-07", from_place: "A", to_place: "B", miles: 9, purpose: "Agent-found trip" }, agent.key, agent.headers)
    expect(proposed.status).toBe(202)
    expect(proposed.body).toMatchObject({ status: "pending_approval", trip: { status: "proposed" } })
    const vehicleOnly = await post(company, "/v1/mileage/vehicles", { name: "Agent car", in_service_date: "2026-01-01" }, agent.key, agent.headers)
    expect(vehicleOnly.status).toBe(403)
  })

  it("generates recurring trips across a year once each, never re-logging a voided occurrence", async () => {
    const { company, recurring } = await setUp("Mileage recurring")
    const first = await ok(company, "/v1/mileage/recurring/generate", { through: "2026-12-31" }, 200)
    expect(first.logged).toHaveLength(12)
    expect(first.logged.map((trip: any) => trip.trip_date)[2]).toBe("2026-03-10")
    await ok(company, `/v1/mileage/trips/${first.logged[2].id}/void`, { reason: "Bank closed; did not go" }, 200)
    const second = await ok(company, "/v1/mileage/recurring/generate", { through: "2026-12-31", recurring_trip_id: recurring.id }, 200)
    expect(second).toMatchObject({ logged: [], skipped_voided: 1, already_logged: 11 })

    const weekly = await ok(company, "/v1/mileage/recurring", {
      vehicle_id: recurring.vehicle_id, from_place: "Office", to_place: "Client site", miles: 3.2, purpose: "On-site support",
      frequency: "weekly", weekdays: [1, 3], start_date: "2026-01-05"
    })
    await ok(company, `/v1/mileage/recurring/${weekly.id}/end`, { end_date: "2026-01-31" }, 200)
    const weeklyRun = await ok(company, "/v1/mileage/recurring/generate", { through: "2026-12-31", recurring_trip_id: weekly.id }, 200)
    expect(weeklyRun.logged.map((trip: any) => trip.trip_date)).toEqual(["2026-01-05", "2026-01-07", "2026-01-12", "2026-01-14", "2026-01-19", "2026-01-21", "2026-01-26", "2026-01-28"])
    const listed = await get(company, "/v1/mileage/recurring")
    expect(listed.body.data.map((one: any) => one.id)).toEqual([weekly.id, recurring.id])
    const incomplete = await post(company, "/v1/mileage/recurring", { vehicle_id: recurring.vehicle_id, from_place: "A", to_place: "B", miles: 1, purpose: "x", frequency: "weekly", start_date: "2026-01-01" })
    expect(incomplete.status).toBe(422)
  })

  it("computes the deduction a person would by hand", async () => {
    const { company, car } = await setUp("Mileage deduction")
    const generated = await ok(company, "/v1/mileage/recurring/generate", { through: "2026-12-31" }, 200)
    await ok(company, `/v1/mileage/trips/${generated.logged[2].id}/void`, { reason: "Did not go" }, 200)
    const expense = await post(company, "/v1/journal-entries/propose", {
      entry_date: "2026-04-01", memo: "Fuel and repairs", lines: [{ account: "6240", debit_cents: 123_456 }, { account: "1010", credit_cents: 123_456 }]
    })
    expect(expense.status).toBe(201)
    const deduction = await get(company, "/v1/mileage/deduction?year=2026")
    expect(deduction.status).toBe(200)
    // Business: 24.6 (12.3 round trip) + 40.5 + 11 bank runs of 17.0 = 252.1 miles = 2521 tenths.
    // Standard: 2521 tenths x 725 tenth-cents (72.5 cents, 2026) = 1,827,725 hundredths of a cent -> $182.7725 -> 18,277 cents.
    // Total from the odometer: 12,000 - 10,000 = 2,000 miles; business use 2521 / 20000 = 12.605% -> "12.60".
    // Actual: 123,456 cents x 2521 / 20000 = 15,561.63 -> 15,562 cents.
    expect(deduction.body.vehicles[0]).toMatchObject({
      vehicle_id: car.id,
      business_tenths: 2521,
      business_miles: 252.1,
      total_tenths: 20_000,
      total_miles_source: "odometer",
      business_use_percent: "12.60",
      business_use_ppm: 126_050,
      standard_deduction_cents: 18_277,
      actual_expenses_cents: 123_456,
      actual_expenses_business_cents: 15_562
    })
    expect(deduction.body.vehicles[0].rates[0]).toMatchObject({ cents_per_mile: "72.5", business_tenths: 2521 })
    expect(deduction.body.vehicles[0].rates[0].source).toContain("IRS")
    const unknownYear = await get(company, "/v1/mileage/deduction?year=2019")
    expect(unknownYear.status).toBe(200)
    expect(unknownYear.body.vehicles).toHaveLength(0)
  })

  it("prints the log as JSON, CSV and a PDF that parses back", async () => {
    const { company, car } = await setUp("Mileage log")
    const json = await get(company, `/v1/mileage/log?year=2026&vehicle_id=${car.id}`)
    expect(json.body.trips).toHaveLength(3)
    expect(json.body.odometer[0]).toMatchObject({ start_miles: 10_000, end_miles: 12_000 })
    expect(json.body).toMatchObject({ business_miles: 65.1, personal_miles: 30 })
    const csv = await getFile(app.fetch, "/v1/mileage/log?year=2026&format=csv", company.ownerKey)
    expect(csv.contentType).toBe("text/csv; charset=utf-8")
    const lines = csv.text.trim().split("\r\n")
    expect(lines[0]).toBe("Date,Vehicle,From,To,Purpose,Kind,Miles one way,Round trip,Miles,Trip id,Replaces trip")
    expect(lines[1]).toContain("2026-03-03,Blue hatchback,Office,Acme Ltd,Quarterly review with Acme,business,12.3,yes,24.6")
    const pdf = await getFile(app.fetch, "/v1/mileage/log?year=2026&format=pdf", company.ownerKey)
    expect(pdf.contentType).toBe("application/pdf")
    expect(isPdf(pdf.bytes)).toBe(true)
    const bytes = pdf.bytes
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true })
    expect(text).toContain("Mileage log 2026")
    expect(text).toContain("Pick up shelving")
    expect(text).toContain("odometer start 10000, end 12000")
    expect(text).toContain("Business miles 65.1 of 95.1 logged")
  })

  it("keeps accounts to one vehicle and refuses trips after retirement", async () => {
    const { company, car } = await setUp("Mileage vehicles")
    const van = await ok(company, "/v1/mileage/vehicles", { name: "Van", ownership: "leased", in_service_date: "2025-01-01" })
    const taken = await post(company, `/v1/mileage/vehicles/${van.id}/accounts`, { accounts: ["6240"] })
    expect(taken.status).toBe(409)
    expect(taken.body.error.type).toBe("vehicle_account_taken")
    const unknown = await post(company, `/v1/mileage/vehicles/${van.id}/accounts`, { accounts: ["9999"] })
    expect(unknown.body.error.type).toBe("unknown_account")
    await ok(company, `/v1/mileage/vehicles/${van.id}`, { retired_on: "2026-06-30", description: "Lease ended" }, 200)
    const late = await post(company, "/v1/mileage/trips", { vehicle_id: van.id, trip_date: "2026-07-01", from_place: "A", to_place: "B", miles: 1, purpose: "x" })
    expect(late.body.error.type).toBe("vehicle_retired")
    expect((await get(company, "/v1/mileage/vehicles")).body.data.map((v: any) => v.id)).toEqual([car.id])
    expect((await get(company, "/v1/mileage/vehicles?include_retired=true")).body.data).toHaveLength(2)
    const badOdometer = await post(company, `/v1/mileage/vehicles/${van.id}/odometer`, { tax_year: 2026, start_miles: 500, end_miles: 100 })
    expect(badOdometer.status).toBe(422)
    const kept = await ok(company, `/v1/mileage/vehicles/${car.id}/odometer`, { tax_year: 2026, start_miles: 10_050 }, 200)
    expect(kept.odometer).toEqual([{ tax_year: 2026, start_miles: 10_050, end_miles: 12_000, total_miles: 1_950 }])
    const cleared = await ok(company, `/v1/mileage/vehicles/${car.id}/odometer`, { tax_year: 2026, start_miles: 10_050, end_miles: null }, 200)
    expect(cleared.odometer[0].end_miles).toBeNull()
  })

  it("posts reimbursements through the governed path, and a void reverses the entry", async () => {
    const { company, car } = await setUp("Mileage reimbursements")
    await ok(company, "/v1/mileage/recurring/generate", { through: "2026-03-31" }, 200)
    const body = { vehicle_id: car.id, payee: "Sam Owner", period_start: "2026-03-01", period_end: "2026-03-31", expense_account: "6240", pay_from_account: "1010", entry_date: "2026-04-02" }
    const dry = await post(company, "/v1/mileage/reimbursements", { ...body, dry_run: true })
    expect(dry.status).toBe(200)
    // March business: 24.6 + 40.5 + 17.0 = 82.1 miles = 821 tenths x 725 = 595,225 -> 5,952.25 -> 5,952 cents.
    expect(dry.body.document).toMatchObject({ business_tenths: 821, amount_cents: 5_952 })
    expect(dry.body.entry.lines).toHaveLength(2)
    const posted = await post(company, "/v1/mileage/reimbursements", body)
    expect(posted.status).toBe(201)
    expect(posted.body).toMatchObject({ amount_cents: 5_952, status: "posted" })
    const overlap = await post(company, "/v1/mileage/reimbursements", { ...body, period_start: "2026-03-15", period_end: "2026-04-15" })
    expect(overlap.body.error.type).toBe("reimbursement_overlaps")
    const none = await post(company, "/v1/mileage/reimbursements", { ...body, period_start: "2026-05-01", period_end: "2026-05-05" })
    expect(none.body.error.type).toBe("no_business_miles")

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const proposal = await post(company, "/v1/mileage/reimbursements", { ...body, period_start: "2026-01-01", period_end: "2026-01-31" }, agent.key, agent.headers)
    expect(proposal.status).toBe(202)
    const approver = await createPerson(app, company, "accountant", ["read", "propose", "approve"])
    const approved = await post(company, `/v1/proposals/${proposal.body.proposal.id}/approve`, {}, approver.key)
    expect(approved.status).toBe(201)
    const listed = await get(company, "/v1/mileage/reimbursements")
    expect(listed.body.data).toHaveLength(2)

    const voided = await post(company, `/v1/mileage/reimbursements/${posted.body.id}/void`, { reason: "Paid twice" })
    expect(voided.status).toBe(200)
    expect(voided.body).toMatchObject({ status: "void", void_reason: "Paid twice" })
    const reversal = await app.query<{ reverses_entry_id: string }>(`SELECT reverses_entry_id::text FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, voided.body.void_entry_id])
    expect(reversal[0]!.reverses_entry_id).toBe(String(posted.body.entry_id))
    expect((await post(company, `/v1/mileage/reimbursements/${posted.body.id}/void`, { reason: "again" })).body.error.type).toBe("already_void")
    expect((await get(company, "/v1/mileage/reimbursements")).body.data).toHaveLength(1)
    expect((await get(company, "/v1/mileage/reimbursements?include_voided=true")).body.data).toHaveLength(2)
  })
})
