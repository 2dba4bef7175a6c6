import { Clock, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryMail } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { EstimatedTaxes } from "@ledger/engine"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
const { EstimatedTaxReminders } = EstimatedTaxes

/**
 * Estimated-tax reminders on the test clock: mailed through the mail port `reminder_days` before
 * each due date as moved past weekends and holidays, once per quarter however many workers scan,
 * not at all when the plan turns them off or the quarter is paid.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2025-06-08T12:00:00Z" })
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown) => app.call("POST", path, { token: company.ownerKey, key: newKey(), body })

const owner = async (company: TestCompany, email: string) => {
  await app.query("UPDATE users SET email = $1, email_verified_at = now() WHERE company_id = $2 AND id = $3", [email, company.companyId, company.ownerId])
}

const scan = (mail: MemoryMail.MemoryMail, worker: string) =>
  app.runtime.runPromise(EstimatedTaxReminders.scan(worker).pipe(Effect.provide(mail.layer), Effect.provideService(Clock.Clock, app.clock!)))

// 2025: $80,000 of income and $12,000 of prior-year tax make $3,000 a quarter (estimated-taxes.test.ts).
const plan = { year: 2025, return_type: "SCHC", income_method: "manual", manual_income_cents: 8_000_000, filing_status: "single", prior_year_tax_cents: 1_200_000 }

describe("estimated-tax reminders", () => {
  it("mail once, in the week before the holiday-moved due date, to the owners, whichever worker scans", async () => {
    const company = await app.createCompany({ name: "Reminded Co" })
    await owner(company, "owner@reminded.example")
    const saved = await post(company, "/v1/estimated-taxes/plan", { ...plan, reminders: true, reminder_days: 7 })
    expect(saved.status).toBe(200)
    expect(saved.body.plan).toMatchObject({ reminders: true, reminder_days: 7 })
    const quiet = await app.createCompany({ name: "Quiet Co" })
    await owner(quiet, "owner@quiet.example")
    expect((await post(quiet, "/v1/estimated-taxes/plan", { ...plan, reminders: false })).status).toBe(200)

    const mail = MemoryMail.make()
    const ours = () => mail.sent.filter((message) => message.to.address === "owner@reminded.example")
    // June 15, 2025 is a Sunday: the second installment is due Monday June 16, so the 7-day window opens June 9.
    await scan(mail, "worker-a")
    expect(mail.sent).toHaveLength(0)

    app.clock!.set("2025-06-16T08:00:00Z")
    // Two workers scan at once: one mail.
    await Promise.all([scan(mail, "worker-a"), scan(mail, "worker-b")])
    await scan(mail, "worker-a")
    expect(ours()).toHaveLength(1)
    const sent = ours()[0]!
    expect(sent.subject).toBe("Reminded Co: estimated tax payment 2 for 2025 is due 2025-06-16")
    expect(sent.text).toContain("(2025-06-15 falls on a weekend or legal holiday)")
    expect(sent.text).toContain("Planned installment: $3,000.00. Left to pay: $3,000.00.")
    expect(sent.text).toContain("reminders: false")
    expect(sent.headers["X-Ledger-Estimated-Tax-Reminder"]).toBe("2025-Q2")
    expect(mail.sent.filter((message) => message.to.address === "owner@quiet.example")).toHaveLength(0)
    const rows = await app.query<{ quarter: number; status: string; attempts: number }>(
      "SELECT quarter, status, attempts FROM estimated_tax_reminders WHERE company_id = $1", [company.companyId])
    expect(rows).toEqual([{ quarter: 2, status: "sent", attempts: 1 }])

    // The day after the due date is past the window: nothing more.
    app.clock!.set("2025-06-17T08:00:00Z")
    await scan(mail, "worker-b")
    expect(ours()).toHaveLength(1)

    // Turned off in the plan: the third installment's window passes without a mail.
    expect((await post(company, "/v1/estimated-taxes/plan", { year: 2025, reminders: false })).body.plan.reminders).toBe(false)
    app.clock!.set("2025-09-12T08:00:00Z")
    await scan(mail, "worker-a")
    expect(ours()).toHaveLength(1)
  })

  it("a paid quarter is not reminded; a failed send is sent by a later scan; the worker's periodic job runs the scan", async () => {
    app.clock!.set("2025-09-10T08:00:00Z")
    const paid = await app.createCompany({ name: "Paid Co" })
    await owner(paid, "owner@paid.example")
    await post(paid, "/v1/estimated-taxes/plan", { ...plan, reminders: true, reminder_days: 10 })
    expect((await post(paid, "/v1/estimated-taxes/payments", { year: 2025, quarter: 3, paid_on: "2025-09-09", amount_cents: 300_000, method: "eftps", outside_books: true })).status).toBe(201)
    const flaky = await app.createCompany({ name: "Flaky Co" })
    await owner(flaky, "owner@flaky.example")
    await post(flaky, "/v1/estimated-taxes/plan", { ...plan, reminders: true, reminder_days: 10 })

    const mail = MemoryMail.make()
    mail.failNext({ message: "SMTP is down" })
    await scan(mail, "worker-a")
    expect(mail.sent.filter((message) => message.to.address === "owner@flaky.example")).toHaveLength(0)
    expect((await app.query<{ status: string }>("SELECT status FROM estimated_tax_reminders WHERE company_id = $1", [flaky.companyId]))[0]!.status).toBe("failed")

    // The next run is the worker's own periodic job.
    await app.runtime.runPromise(Effect.gen(function*() {
      yield* Worker.schedulePeriodic(EstimatedTaxReminders.jobKind, 0)
      return yield* Worker.drain({ id: "reminder-test", ...Worker.defaults })
    }).pipe(Effect.provide(mail.layer), Effect.provideService(Clock.Clock, app.clock!)))
    const flakyMail = mail.sent.filter((message) => message.to.address === "owner@flaky.example")
    expect(flakyMail).toHaveLength(1)
    expect(flakyMail[0]!.subject).toBe("Flaky Co: estimated tax payment 3 for 2025 is due 2025-09-15")
    expect(mail.sent.filter((message) => message.to.address === "owner@paid.example")).toHaveLength(0)
    expect((await app.query<{ status: string; attempts: number }>("SELECT status, attempts FROM estimated_tax_reminders WHERE company_id = $1", [flaky.companyId]))[0])
      .toEqual({ status: "sent", attempts: 2 })
  })

  it("the reminder window is reminder_days before the due date through the due date", () => {
    const dates = ["2025-04-15", "2025-06-16", "2025-09-15", "2026-01-15"]
    expect(EstimatedTaxReminders.dueForReminder(dates, 7, "2025-06-08")).toEqual([])
    expect(EstimatedTaxReminders.dueForReminder(dates, 7, "2025-06-09")).toEqual([{ quarter: 2, dueDate: "2025-06-16" }])
    expect(EstimatedTaxReminders.dueForReminder(dates, 0, "2025-06-16")).toEqual([{ quarter: 2, dueDate: "2025-06-16" }])
    expect(EstimatedTaxReminders.dueForReminder(dates, 7, "2025-06-17")).toEqual([])
    expect(EstimatedTaxReminders.dueForReminder(dates, 30, "2026-01-01")).toEqual([{ quarter: 4, dueDate: "2026-01-15" }])
  })
})
