import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkScreen, expectOk, setUpCompany, signedInPage, startHarness, type WebHarness } from "../support/browser/harness.ts"
import { chromiumPath, hasChromium } from "../support/browser/chromium.ts"

/**
 * The issue 31 screens in a real Chromium against a real `ledger serve`: reports (the totals shown
 * are the API's, and the CSV link is the API's file), periods and their locks, security settings
 * (new recovery codes, signing out the other sessions), section 7216 consents (the template, signing
 * a pending one), and the firm's close checklist. Every screen visited is checked with axe-core
 * for WCAG 2 A/AA violations. Skipped with a message when no Chromium is installed.
 */

if (!hasChromium) console.warn(`test/web/screens.test.ts skipped: no Chromium at ${chromiumPath}.`)

/**
 * An amount of cents as the screens show it: thousands separated, two decimals. The app's own
 * formatter is checked against this same reference in packages/web/test/app-rules.test.ts.
 */
const formatCents = (cents: number): string => {
  const magnitude = BigInt(Math.abs(cents))
  return `${cents < 0 ? "-" : ""}${(magnitude / 100n).toLocaleString("en-US")}.${(magnitude % 100n).toString().padStart(2, "0")}`
}

let harness: WebHarness
const today = () => new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  if (hasChromium) harness = await startHarness()
}, 300_000)

afterAll(async () => {
  await harness?.stop()
})

describe.skipIf(!hasChromium)("the issue 31 screens in Chromium", () => {
  it("shows reports with the API's totals and its CSV, and locks a period with a reason", async () => {
    const email = `reports-${Date.now()}@example.test`
    const company = await setUpCompany(harness, "Juniper Studio", email)
    for (const [debit, credit, cents] of [["6070", "2100", 12_345], ["1010", "4000", 250_000]] as const) {
      const posted = await harness.api("POST", "/v1/journal-entries/propose", company.owner, {
        entry_date: today(), memo: "Web reports", lines: [{ account: debit, debit_cents: cents }, { account: credit, credit_cents: cents }]
      })
      expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    }

    const page = await signedInPage(harness, email, "reports")
    await page.getByRole("heading", { name: "Reports" }).waitFor()
    await checkScreen(page, "7-reports-form")
    await page.getByRole("button", { name: "Show report" }).click()
    const totals = page.getByRole("row", { name: "Totals" })
    await totals.waitFor()
    const trial = expectOk(await harness.api("GET", `/v1/reports/trial-balance?as_of=${today()}`, company.owner), 200)
    expect(trial.total_debit_cents).toBe(262_345)
    expect(await totals.textContent()).toBe(`Totals${formatCents(trial.total_debit_cents)}${formatCents(trial.total_credit_cents)}`)
    await checkScreen(page, "7-trial-balance")

    // The CSV link is the API's own file, fetched with the page's session cookie.
    const href = await page.getByRole("link", { name: "Download this report as CSV" }).getAttribute("href")
    const csv = await page.request.get(`${harness.url}${href}`)
    expect(csv.status()).toBe(200)
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/u)
    expect(await csv.text()).toContain("6070")

    await page.getByLabel("Report", { exact: true }).selectOption("profit-and-loss")
    // Switching the kind clears the table shown for the old one (issue 38 item 16).
    expect(await totals.count()).toBe(0)
    expect(await page.getByRole("link", { name: "Download this report as CSV" }).count()).toBe(0)
    await page.getByRole("button", { name: "Show report" }).click()
    await page.getByTestId("net-income").waitFor()
    const pnl = expectOk(await harness.api("GET", `/v1/reports/profit-and-loss?to=${today()}`, company.owner), 200)
    expect(pnl.net_income_cents).toBe(250_000 - 12_345)
    expect(await page.getByTestId("net-income").textContent()).toBe(formatCents(pnl.net_income_cents))
    expect(await page.getByRole("img", { name: /^Profit and loss at a glance/u }).getAttribute("aria-label")).toContain(`Net income ${formatCents(pnl.net_income_cents)}`)
    await checkScreen(page, "7-profit-and-loss")

    await page.getByLabel("Report", { exact: true }).selectOption("balance-sheet")
    await page.getByRole("button", { name: "Show report" }).click()
    await page.getByRole("heading", { name: /^Balance sheet as of/u }).waitFor()
    const sheet = expectOk(await harness.api("GET", `/v1/reports/balance-sheet?as_of=${today()}`, company.owner), 200)
    expect(await page.getByRole("main").textContent()).toContain(`Total liabilities and equity: ${formatCents(sheet.total_liabilities_and_equity_cents)}`)
    await checkScreen(page, "7-balance-sheet")

    await page.getByRole("link", { name: "Periods" }).click()
    await page.getByRole("heading", { name: "Periods and locks" }).waitFor()
    const periods = expectOk(await harness.api("GET", "/v1/periods?limit=1", company.owner), 200)
    const first = periods.data[0]
    const row = page.getByRole("row").filter({ hasText: `${first.start_date} to ${first.end_date}` })
    await row.waitFor()
    expect(await row.textContent()).toContain("Open")
    await checkScreen(page, "8-periods")
    await row.getByLabel("New state").selectOption("soft_locked")
    await row.getByLabel("Reason").fill("Month reviewed by the owner")
    await row.getByRole("button", { name: "Change" }).click()
    await page.getByRole("status").filter({ hasText: "is now soft-locked" }).waitFor()
    expect(await row.textContent()).toContain("Month reviewed by the owner")
    const locked = expectOk(await harness.api("GET", "/v1/periods?limit=1", company.owner), 200).data[0]
    expect(locked).toMatchObject({ id: first.id, status: "soft_locked", status_reason: "Month reviewed by the owner" })
    await checkScreen(page, "8-periods-locked")
  }, 180_000)

  it("shows security settings, makes recovery codes, signs out other sessions, and signs a 7216 consent", async () => {
    const email = `security-${Date.now()}@example.test`
    const company = await setUpCompany(harness, "Maple Tailors", email)
    const other = await signedInPage(harness, email, "inbox")
    await other.getByRole("heading", { name: "Approval inbox" }).waitFor()
    await checkScreen(other, "9-inbox-empty")

    const page = await signedInPage(harness, email, "security")
    await page.getByRole("heading", { name: "Security", exact: true }).waitFor()
    expect(await page.getByRole("main").textContent()).toContain(email)
    await checkScreen(page, "9-security")
    await page.getByRole("button", { name: "Make new recovery codes" }).click()
    const codes = page.getByRole("list", { name: "New recovery codes" })
    await codes.waitFor()
    expect(await codes.getByRole("listitem").count()).toBe(10)
    await page.getByText("10 unused").waitFor()
    await checkScreen(page, "9-security-codes")

    await page.getByRole("button", { name: "Sign out other sessions" }).click()
    await page.getByRole("status").filter({ hasText: "Signed out 1 other session." }).waitFor()
    expect((await other.request.get(`${harness.url}/v1/me`)).status()).toBe(401)
    expect((await page.request.get(`${harness.url}/v1/me`)).status()).toBe(200)

    const requested = expectOk(await harness.api("POST", "/v1/company/ai-consents", company.owner, {
      providers: ["provider_a", "provider_b"], data_categories: ["books"], purposes: ["bookkeeping"], send_request: false
    }), 201)
    await page.getByRole("link", { name: "AI consents" }).click()
    const card = page.getByRole("article", { name: `Consent ${requested.id}, version 1`, exact: false })
    await page.getByRole("heading", { name: `Consent ${requested.id}, version 1: pending` }).waitFor()
    await checkScreen(page, "10-consents")
    // The template preview is the API's text; nothing is saved by it.
    await page.getByRole("group", { name: "AI providers" }).getByLabel("provider a").check()
    await page.getByRole("button", { name: "Show the text" }).click()
    expect(await page.getByLabel("Consent text").textContent()).toContain("Provider A")

    await card.getByLabel("provider b").uncheck()
    await card.getByLabel("Your full name, typed as your signature").fill("Pat Person")
    await card.getByRole("button", { name: "Sign" }).click()
    await page.getByRole("heading", { name: `Consent ${requested.id}, version 1: valid now` }).waitFor()
    await checkScreen(page, "10-consent-signed")
    const signed = expectOk(await harness.api("GET", `/v1/company/ai-consents/${requested.id}`, company.owner), 200)
    expect(signed).toMatchObject({ status: "valid_now", signed_method: "typed", accepted_providers: ["provider_a"] })

    await card.getByLabel("Reason for revoking (optional)").fill("We stopped using the assistant")
    await card.getByRole("button", { name: "Revoke" }).click()
    await page.getByRole("heading", { name: `Consent ${requested.id}, version 1: revoked` }).waitFor()
    expect(expectOk(await harness.api("GET", `/v1/company/ai-consents/${requested.id}`, company.owner), 200).status).toBe("revoked")
  }, 180_000)

  it("shows the firm's close checklist to a console session, claims an owner invitation, and the sign-in screen passes axe", async () => {
    const client = await setUpCompany(harness, "Willow Dental", `willow-${Date.now()}@example.test`)
    const firm = expectOk(await harness.api("POST", "/v1/firms", harness.operatorToken, { name: "Ames Close Partners", admin_name: "Ada Ames" }), 201)
    expectOk(await harness.api("POST", "/v1/firm-access", client.owner, { firm_id: firm.firm.id, scopes: ["read", "approve"], billing: "client", reason: "Month-end close" }), 201)
    const session = expectOk(await harness.api("POST", "/v1/firm/sessions", firm.secret, {}), 201)
    const close = expectOk(await harness.api("GET", `/v1/firm/close?date=${today()}`, session.secret), 200)

    const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${harness.url}/app/sign-in`)
    await page.getByLabel("Email address").waitFor()
    await checkScreen(page, "11-sign-in")
    // Without a console session the checklist shows the API's refusal.
    await page.goto(`${harness.url}/app/close`)
    await page.getByRole("alert").waitFor()
    await context.addCookies([{ name: "ledger_session", value: session.secret, url: harness.url, httpOnly: true, sameSite: "Lax" }])
    await page.reload()
    const row = page.getByRole("row").filter({ hasText: "Willow Dental" })
    await row.waitFor()
    const willow = close.data.find((each: { name: string }) => each.name === "Willow Dental")
    expect(await row.textContent()).toContain(willow.ready ? "Ready to lock" : "Not ready")
    expect(await row.textContent()).toContain(`${willow.period.start_date} to ${willow.period.end_date}`)
    await checkScreen(page, "11-close")

    // A client the firm created: its owner claims the invitation in the app and gets the key once.
    const created = expectOk(await harness.api("POST", "/v1/firm/clients", firm.secret, { name: "Aspen Florist", owner_name: "Rowan Reyes" }), 201)
    await page.goto(`${harness.url}/app/claim`)
    await page.getByRole("heading", { name: "Claim your company" }).waitFor()
    await checkScreen(page, "12-claim")
    await page.getByLabel("Invitation (starts with ldgi_)").fill(created.secret)
    await page.getByRole("button", { name: "Claim" }).click()
    const ownerKey = await page.getByLabel("Owner key").textContent()
    expect(expectOk(await harness.api("GET", "/v1/company", ownerKey!), 200).name).toBe("Aspen Florist")
    await checkScreen(page, "12-claimed")
    // Used once: a second claim shows the API's refusal.
    await page.reload()
    await page.getByLabel("Invitation (starts with ldgi_)").fill(created.secret)
    await page.getByRole("button", { name: "Claim" }).click()
    await page.getByRole("alert").waitFor()
    expect(await page.getByRole("alert").textContent()).toBeTruthy()
  }, 180_000)
})
