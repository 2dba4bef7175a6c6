import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, connectMcp, makeTestApp, newKey, type TestApp } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

describe("mileage, payroll and estimated taxes over MCP", () => {
  it("lets an agent propose trips and read the log and plan, and refuses its payroll import", async () => {
    const company = await app.createCompany({ name: "MCP Mileage" })
    const owner = await connectMcp(app, company.ownerKey)
    const vehicle = await owner.callTool({ name: "create_vehicle", arguments: { name: "Truck", in_service_date: "2026-01-01", idempotency_key: newKey() } })
    expect(vehicle.isError).toBeFalsy()
    const vehicleId = (vehicle.structuredContent as any).id

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const client = await connectMcp(app, agent.key, { ...agent.headers, "x-ledger-toolsets": "mileage,payroll,estimated-taxes" })
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    for (const name of ["log_trip", "get_mileage_log", "get_mileage_deduction", "create_mileage_reimbursement", "get_payroll_ytd", "get_estimated_taxes"]) {
      expect(tools).toContain(name)
    }
    const proposed = await client.callTool({
      name: "log_trip",
      arguments: { vehicle_id: vehicleId, trip_date: "2026-02-02", from_place: "Yard", to_place: "Site 4", miles: 14.2, round_trip: true, purpose: "Deliver materials", idempotency_key: newKey() }
    })
    expect(proposed.isError).toBeFalsy()
    expect(proposed.structuredContent).toMatchObject({ status: "pending_approval", trip: { status: "proposed", total_tenths: 284 } })
    const confirmed = await owner.callTool({
      name: "correct_trip",
      arguments: {
        id: (proposed.structuredContent as any).trip.id, vehicle_id: vehicleId, trip_date: "2026-02-02", from_place: "Yard", to_place: "Site 4",
        miles: 14.2, round_trip: true, purpose: "Deliver materials", reason: "Confirmed from the delivery note", idempotency_key: newKey()
      }
    })
    expect(confirmed.structuredContent).toMatchObject({ status: "logged", total_tenths: 284 })
    const log = await client.callTool({ name: "get_mileage_log", arguments: { year: 2026 } })
    expect((log.structuredContent as any).business_miles).toBe(28.4)

    const refused = await client.callTool({
      name: "import_payroll_ytd",
      arguments: { csv: "Employee,Gross Wages\nAda,100.00", provider: "provider_a", tax_year: 2026, period_through: "2026-01-31", idempotency_key: newKey() }
    })
    expect(refused.isError).toBe(true)
    expect((refused.structuredContent as any).error.type).toBe("insufficient_scope")
    const plan = await client.callTool({ name: "get_estimated_taxes", arguments: { year: 2026 } })
    expect(plan.isError).toBeFalsy()
    expect((plan.structuredContent as any).quarters).toHaveLength(4)
    await client.close()
    await owner.close()
  })
})
