import { randomBytes } from "node:crypto"
import { type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkScreen, expectOk, setUpCompany, startHarness, type WebHarness } from "../support/browser/harness.ts"
import { chromiumPath, hasChromium } from "../support/browser/chromium.ts"

/**
 * In a real Chromium against a real `ledger serve`: the vendor's public W-9 page opened from the
 * link the 1099 request mailed over SMTP (`/w9/<token>` forwarded into the app), an API refusal
 * shown, the form received and recorded (TIN masked), and the used link refused; then the
 * accountant's console deciding proposals of three clients in one batch and locking a period in
 * several clients, each item's outcome shown (a client that granted no approval is refused
 * without blocking the others). Every screen is checked with axe-core.
 */

if (!hasChromium) console.warn(`test/web/w9-and-batch.test.ts skipped: no Chromium at ${chromiumPath}.`)

let harness: WebHarness
const today = () => new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  // TINs are sealed: with PostgreSQL the server generates no master key, so the test gives one.
  if (hasChromium) harness = await startHarness({ LEDGER_MASTER_KEY: randomBytes(32).toString("base64") })
}, 300_000)

afterAll(async () => {
  await harness?.stop()
})

const fillW9 = async (page: Page, tin: string) => {
  await page.getByLabel("Name (as shown on your income tax return)").fill("Wendy Walker")
  await page.getByLabel("Business name or disregarded entity name (optional)").fill("Walker Design")
  await page.getByLabel("Federal tax classification").selectOption("individual")
  await page.getByLabel("Address (number, street, and apt. or suite no.)").fill("22 Oak Lane")
  await page.getByLabel("City").fill("Madison")
  await page.getByLabel("State", { exact: true }).fill("wi")
  await page.getByLabel("ZIP code").fill("53703")
  await page.getByLabel("Type of number").selectOption("SSN")
  await page.getByLabel("Taxpayer identification number", { exact: true }).fill(tin)
  await page.getByLabel("I certify the statements above").check()
  await page.getByLabel("Signature (type your full name)").fill("Wendy Walker")
}

/** A client of the firm `firmId` with an agent's proposal of `cents` waiting, and the firm's access with `scopes`. */
const batchClient = async (input: {
  readonly firmId: number
  readonly stamp: number
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  readonly cents: number
  readonly memo: string
}) => {
  const { firmId, stamp, name, scopes, cents, memo } = input
  const made = await setUpCompany(harness, name, `${name.toLowerCase().replace(/\W+/gu, "-")}-${stamp}@example.test`)
  const agent = expectOk(await harness.api("POST", "/v1/agents", made.owner, { name: "Bills agent", scopes: ["read", "propose"], posting_threshold_cents: 1_000 }), 201)
  const key = expectOk(await harness.api("POST", "/v1/keys", made.owner, { principal_type: "agent", agent_id: agent.id, scopes: ["read", "propose"] }), 201)
  const queued = expectOk(await harness.api("POST", "/v1/journal-entries/propose", key.secret, {
    entry_date: today(), memo, lines: [{ account: "6070", debit_cents: cents }, { account: "2100", credit_cents: cents }]
  }, { "x-agent-model": "test-model/1.0" }), 202)
  expectOk(await harness.api("POST", "/v1/firm-access", made.owner, { firm_id: firmId, scopes, billing: "client", reason: "Our accountants" }), 201)
  return { ...made, name, proposalId: queued.proposal.id as number, agentKey: key.secret as string }
}

type BatchClient = Awaited<ReturnType<typeof batchClient>>

/** The accountant console signed in by emailed code, its client list showing `lastClient`. */
const consoleSignedIn = async (email: string, lastClient: string) => {
  const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${harness.url}/app/console`)
  await page.getByLabel("Email address").fill(email)
  await page.getByRole("button", { name: "Email me a code" }).click()
  await page.getByLabel("Sign-in code").fill(await harness.codeFor(email))
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.getByRole("heading", { name: "Accountant console", exact: true }).waitFor()
  await page.getByRole("row").filter({ hasText: lastClient }).waitFor()
  return { context, page }
}

/** Soft-locks today's period in every client from the console: those that granted approval lock it, `refused` is refused. */
const lockAcrossClients = async (page: Page, clients: { readonly locked: readonly [BatchClient, BatchClient]; readonly refused: BatchClient }) => {
  const [oak, pine] = clients.locked
  const elm = clients.refused
  const locks = page.getByRole("form", { name: "Lock a period across clients" })
  for (const each of [oak, pine, elm]) await locks.getByLabel(each.name, { exact: true }).check()
  await locks.getByLabel("A date in the period to lock").fill(today())
  await locks.getByLabel("Lock", { exact: true }).selectOption("soft_locked")
  await locks.getByLabel("Reason").fill("Month-end close")
  await locks.getByRole("button", { name: "Lock in 3 clients" }).click()
  const locked = page.getByRole("table", { name: /^Period locks: 2 done, 1 refused/u })
  await locked.waitFor()
  expect(await locked.getByRole("row").filter({ hasText: "Oak Bistro" }).textContent()).toContain("Soft-locked")
  expect(await locked.getByRole("row").filter({ hasText: "Elm Yoga" }).textContent()).toContain("Refused: ")
  await checkScreen(page, "14-console-batch-locked")
  const periodOf = async (owner: string) =>
    (expectOk(await harness.api("GET", "/v1/periods?limit=100", owner), 200).data as Array<{ start_date: string; end_date: string; status: string }>)
      .find((period) => period.start_date <= today() && today() <= period.end_date)!
  expect((await periodOf(oak.owner)).status).toBe("soft_locked")
  expect((await periodOf(pine.owner)).status).toBe("soft_locked")
  expect((await periodOf(elm.owner)).status).toBe("open")
}

describe.skipIf(!hasChromium)("the W-9 page and the console's batch work in Chromium", () => {
  it("forwards only a W-9 token's path into the app, uncached", async () => {
    const token = `w9_${"A".repeat(43)}`
    const forwarded = await fetch(`${harness.url}/w9/${token}`, { redirect: "manual" })
    expect(forwarded.status).toBe(302)
    expect(forwarded.headers.get("location")).toBe(`/app/w9/${token}`)
    expect(forwarded.headers.get("cache-control")).toBe("no-store")
    for (const wrong of ["/w9/not-a-token", `/w9/${token}/more`, "/w9/"]) {
      expect((await fetch(`${harness.url}${wrong}`, { redirect: "manual" })).status, wrong).toBe(404)
    }
  })

  it("opens the mailed W-9 link without signing in, shows a refusal, records the W-9 with the TIN masked", async () => {
    const company = await setUpCompany(harness, "Birch Books", `birch-${Date.now()}@example.test`)
    const vendorEmail = `wendy-${Date.now()}@example.test`
    const vendor = expectOk(await harness.api("POST", "/v1/contacts", company.owner, { kind: "vendor", name: "Wendy Walker", email: vendorEmail, is_1099: true }), 201)
    expectOk(await harness.api("POST", "/v1/w9-requests", company.owner, { contact_id: vendor.id, message: "For our 1099s" }), 201)
    const link = await harness.mailed(vendorEmail, /(https?:\/\/[^\s"<>]+\/w9\/w9_[A-Za-z0-9_-]+)/u)
    expect(new URL(link).pathname).toMatch(/^\/w9\/w9_/u)

    const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 } })
    const page = await context.newPage()
    await page.goto(link)
    // The mailed link lands in the app's public page: no sign-in asked.
    expect(new URL(page.url()).pathname).toBe(`/app${new URL(link).pathname}`)
    await page.getByRole("heading", { name: /Form W-9/u }).waitFor()
    expect(await page.getByLabel("Email address").count()).toBe(0)
    await checkScreen(page, "13-w9-form")

    // A malformed number: the API's own refusal is shown, and nothing is recorded.
    await fillW9(page, "12345")
    await page.getByRole("button", { name: "Send my W-9" }).click()
    await page.getByRole("alert").waitFor()
    expect(await page.getByRole("alert").textContent()).toBeTruthy()
    expect(await page.getByRole("list", { name: "What to correct" }).textContent()).toContain("Taxpayer identification number")
    expect((await harness.api("GET", `/v1/vendors/${vendor.id}/tax-profile`, company.owner)).status).not.toBe(200)
    await checkScreen(page, "13-w9-refused")

    await page.getByLabel("Taxpayer identification number", { exact: true }).fill("222-33-4444")
    await page.getByRole("button", { name: "Send my W-9" }).click()
    // Either the confirmation or a refusal: a refusal fails here with the API's message.
    await page.getByRole("heading", { name: "Form W-9 received" }).or(page.getByRole("alert")).first().waitFor()
    expect(await page.getByRole("alert").allTextContents()).toEqual([])
    const status = await page.getByRole("status").textContent()
    expect(status).toContain("Birch Books")
    expect(status).toContain("***-**-4444")
    expect(await page.content()).not.toContain("222-33-4444")
    await checkScreen(page, "13-w9-received")

    const profile = expectOk(await harness.api("GET", `/v1/vendors/${vendor.id}/tax-profile`, company.owner), 200)
    expect(profile).toMatchObject({ source: "w9", legal_name: "Wendy Walker", business_name: "Walker Design", state: "WI", tin_type: "SSN", tin_masked: "***-**-4444" })
    expect(JSON.stringify(profile)).not.toContain("222334444")
    const requests = expectOk(await harness.api("GET", `/v1/w9-requests?contact_id=${vendor.id}`, company.owner), 200)
    expect(requests.data[0].status).toBe("completed")

    // The link is single use: opened again, the form shows the API's refusal.
    await page.goto(link)
    await fillW9(page, "222-33-4444")
    await page.getByRole("button", { name: "Send my W-9" }).click()
    await page.getByRole("alert").waitFor()
    expect(await page.getByRole("heading", { name: "Form W-9 received" }).count()).toBe(0)
    await context.close()
  }, 180_000)

  it("decides proposals of several clients in one batch and locks a period across clients, item by item", async () => {
    const stamp = Date.now()
    const ada = `ada-batch-${stamp}@example.test`
    const firm = expectOk(await harness.api("POST", "/v1/firms", harness.operatorToken, { name: "Ames Batch CPAs", admin_name: "Ada Ames", admin_email: ada }), 201)
    const client = (name: string, scopes: ReadonlyArray<string>, cents: number, memo: string) =>
      batchClient({ firmId: firm.firm.id, stamp, name, scopes, cents, memo })
    const oak = await client("Oak Bistro", ["read", "propose", "approve"], 20_000, "Oak linen service")
    const pine = await client("Pine Garage", ["read", "propose", "approve"], 30_000, "Pine tool rental")
    const elm = await client("Elm Yoga", ["read"], 40_000, "Elm mats")

    const { context, page } = await consoleSignedIn(ada, "Elm Yoga")

    await page.getByRole("button", { name: "Decide proposals of several clients at once" }).click()
    for (const each of [oak, pine, elm]) await page.getByLabel(`Select proposal ${each.proposalId} of ${each.name}`).check()
    await checkScreen(page, "14-console-batch")
    await page.getByRole("button", { name: "Approve selected (3)" }).click()
    const results = page.getByRole("table", { name: /^Approvals: 2 done, 1 refused/u })
    await results.waitFor()
    expect(await results.getByRole("row").filter({ hasText: "Oak Bistro" }).textContent()).toContain("Approved")
    expect(await results.getByRole("row").filter({ hasText: "Pine Garage" }).textContent()).toContain("Approved")
    expect(await results.getByRole("row").filter({ hasText: "Elm Yoga" }).textContent()).toContain("Refused: ")
    await checkScreen(page, "14-console-batch-decided")
    expect(expectOk(await harness.api("GET", `/v1/proposals/${oak.proposalId}`, oak.owner), 200)).toMatchObject({ status: "approved", decided_by: { type: "firm_member" } })
    expect(expectOk(await harness.api("GET", `/v1/proposals/${pine.proposalId}`, pine.owner), 200).status).toBe("approved")
    expect(expectOk(await harness.api("GET", `/v1/proposals/${elm.proposalId}`, elm.owner), 200).status).toBe("pending")

    // Rejecting several at once takes the reason typed once; without one, each item is refused.
    const later = expectOk(await harness.api("POST", "/v1/journal-entries/propose", pine.agentKey, {
      entry_date: today(), memo: "Pine duplicate rental", lines: [{ account: "6070", debit_cents: 5_000 }, { account: "2100", credit_cents: 5_000 }]
    }, { "x-agent-model": "test-model/1.0" }), 202).proposal.id as number
    await page.getByRole("button", { name: "Hide the proposals of every client" }).click()
    await page.getByRole("button", { name: "Decide proposals of several clients at once" }).click()
    await page.getByLabel(`Select proposal ${later} of Pine Garage`).check()
    await page.getByLabel("Reason (required to reject)").fill("Duplicate of the rental approved today")
    await page.getByRole("button", { name: "Reject selected (1)" }).click()
    const rejections = page.getByRole("table", { name: /^Rejections: 1 done, 0 refused/u })
    await rejections.waitFor()
    expect(await rejections.getByRole("row").filter({ hasText: "Pine Garage" }).textContent()).toContain(`Proposal ${later}Rejected`)
    expect(expectOk(await harness.api("GET", `/v1/proposals/${later}`, pine.owner), 200)).toMatchObject({ status: "rejected", decided_by: { type: "firm_member" } })

    await lockAcrossClients(page, { locked: [oak, pine], refused: elm })
    await context.close()
  }, 180_000)
})
