import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connector } from "./soap.ts"
import { makeCompany } from "./qbxml.ts"
import { checkScreen, expectOk, setUpCompany, signedInPage, startHarness, type WebHarness } from "../support/browser/harness.ts"
import { chromiumPath, hasChromium } from "../support/browser/chromium.ts"

/**
 * Issue 30's screen in a real Chromium against a real `ledger serve`: a desktop-edition
 * extraction's progress per step shows while the Web Connector is still working, read again by the
 * screen itself (no reload). Skipped with a message when no Chromium is installed.
 */

if (!hasChromium) console.warn(`test/web/sources.test.ts skipped: no Chromium at ${chromiumPath}.`)

let harness: WebHarness
beforeAll(async () => {
  if (hasChromium) harness = await startHarness()
}, 300_000)
afterAll(async () => {
  await harness?.stop()
})

describe.skipIf(!hasChromium)("integrations and migrations in the web app", () => {
  it("shows an extraction's progress while it runs", async () => {
    const email = `sources-${Date.now()}@example.test`
    const company = await setUpCompany(harness, "Sources Studio", email)
    const created = expectOk(await harness.api("POST", "/v1/migrations/desktop/connections", company.owner, { as_of: "2026-03-31" }), 201)
    const books = makeCompany()
    const qb = connector(harness.url)
    const { ticket } = await qb.authenticate(created.user_name, created.password)
    const step = async () => qb.receiveResponseXML(ticket, books.respond(await qb.sendRequestXML(ticket)))
    expect(await step()).toBeGreaterThanOrEqual(0)

    const page = await signedInPage(harness, email, "sources")
    await page.getByRole("heading", { name: "Integrations and migrations" }).waitFor()
    const table = page.getByRole("table", { name: new RegExp(`^Migration ${created.connection.id} `, "u") })
    await table.getByRole("row", { name: /^accounts done 9/u }).waitFor()
    expect(await page.getByText("No provider is connected.").count()).toBe(1)
    await checkScreen(page, "30-sources-extracting")

    // The connector reads the first page of customers; the screen shows it without a reload.
    expect(await step()).toBeGreaterThanOrEqual(0)
    await table.getByRole("row", { name: /^customers running 100 50/u }).waitFor({ timeout: 20_000 })
  })
})
