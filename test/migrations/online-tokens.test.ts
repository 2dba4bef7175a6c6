import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Server } from "@ledger/server"
import type { FakeOnlineBooks } from "@ledger/testkit"
import type { TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"

/**
 * The online edition's tokens over a long extraction (issue 39): Intuit's access token lasts an
 * hour; the fake ends it by the app's clock, and each of its API calls takes ten minutes of that
 * clock here, so an extraction of 17 pages runs close to three hours. The adapter renews the token
 * with the refresh token (rotated at each renewal, the new one stored sealed) instead of needing a
 * new consent; a refresh token the provider refuses (the person disconnected the app) leaves the
 * connection without tokens, saying to consent again.
 */

let app: TestApp
let online: FakeOnlineBooks.FakeOnlineBooks
const clock = Server.manualClock("2026-01-15T09:00:00Z")
beforeAll(async () => {
  const made = await makeProviderApp({ clock, onlineCallTakesMs: 10 * 60_000 })
  app = made.app
  online = made.online
  online.generateYear({ start: "2025-01", months: 12, perMonth: 20, customers: 1_100 })
})
afterAll(() => app.close())

const authorized = async (name: string) => {
  const company = await app.createCompany({ name, starter_chart: "empty" })
  const owner = writer(app, company.ownerKey)
  const created = await owner.post("/v1/migrations/online/connections", { as_of: "2025-12-31" })
  const consent = online.consent(created.body.consent_url)
  const id = created.body.connection.id as number
  const done = await owner.post(`/v1/migrations/online/connections/${id}/authorize`, { code: consent.code, state: consent.state, realm_id: consent.realmId })
  expect(done.body.status).toBe("authorized")
  return { owner, id }
}
const sealed = async (id: number) =>
  (await app.query<{ access_token_sealed: string | null; last_error: string | null }>("SELECT access_token_sealed, last_error FROM migration_connections WHERE id = $1", [id]))[0]!

describe("the online edition's tokens over an extraction longer than their hour", () => {
  it("renews the access token with the rotating refresh token and completes, storing the new tokens sealed", async () => {
    const { owner, id } = await authorized("Long Extraction Co")
    const began = clock.now()
    // 16 counts of ten minutes each: the token's hour ends during the estimate already.
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.status).toBe("estimated")
    const afterEstimate = online.refreshes()
    expect(afterEstimate).toBeGreaterThanOrEqual(2)
    const stored = (await sealed(id)).access_token_sealed!
    const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(extracted.status).toBe(200)
    expect(extracted.body.status).toBe("extracted")
    expect(extracted.body.extracted.tieout_passed).toBe(true)
    // Seventeen pages of ten minutes: well past the hour, with a renewal each hour and no 401 left unanswered.
    expect(clock.now() - began).toBeGreaterThan(5 * 3_600_000)
    expect(online.refreshes() - afterEstimate).toBeGreaterThanOrEqual(2)
    const now = await sealed(id)
    expect(now.access_token_sealed).toMatch(/^v1\./u)
    expect(now.access_token_sealed).not.toBe(stored)
    expect(now.access_token_sealed).not.toMatch(/AB11|qbo_/u)
  })

  it("renews after a 401 AuthenticationFailed even when by its own clock the token is fresh", async () => {
    const { owner, id } = await authorized("Early Expiry Co")
    const before = online.refreshes()
    // The provider ends the token before its hour: only its 401 says so, at the very first count.
    online.endAccessTokens()
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.status).toBe("estimated")
    expect(online.refreshes()).toBeGreaterThan(before)
  })

  it("marks the connection as needing a new consent when the provider refuses the refresh token (invalid_grant)", async () => {
    const { owner, id } = await authorized("Disconnected Co")
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.status).toBe("estimated")
    online.disconnect()
    clock.advance("2 hours")
    const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(extracted.status).toBe(200)
    expect(extracted.body.status).toBe("failed")
    const row = await sealed(id)
    expect(row.access_token_sealed).toBeNull()
    expect(row.last_error).toMatch(/invalid_grant.*consent again/u)
    const again = await owner.post(`/v1/migrations/online/connections/${id}/estimate`)
    expect(again.body.error).toMatchObject({ type: "migration_not_authorized" })
    expect(again.body.error.message).toMatch(/refused the refresh token.*consent again/u)
  })
})
