import { expect } from "vitest"
import { newKey, type TestApp } from "./app.ts"

/**
 * A person's own browser session, for the operations the spec keeps for a person "signed in"
 * (crypto's and online payments' owner operations, billing's writes: any API key is refused
 * `session_required`). Signs the person in by email code as the web app does; the code is read
 * from the mail queued for them (`auth_mails`), so no worker runs and no other job is touched.
 * Signing in counts as a step-up (concepts 5.5) for 10 minutes of the app's clock.
 */

let addresses = 0

export interface SignedIn {
  /** `ldgs_…`: the session token, used as Bearer like a key. */
  readonly secret: string
  readonly userId: number
  readonly email: string
}

/**
 * Signs `userId` (default: the company's first owner) in. A person without an address is given a
 * fresh one first (a test seam: the API sets addresses only when it creates a person).
 */
export const signInAs = async (
  app: TestApp,
  company: { readonly companyId: string; readonly ownerId: number },
  userId: number = company.ownerId
): Promise<SignedIn> => {
  const found = await app.query<{ email: string | null }>(`SELECT email FROM users WHERE company_id = $1 AND id = $2`, [company.companyId, userId])
  if (found[0] === undefined) throw new Error(`no user ${userId} in ${company.companyId}`)
  let email = found[0].email
  if (email === null) {
    email = `signed-in-${Date.now().toString(36)}-${(addresses++).toString(36)}@example.test`
    await app.query(`UPDATE users SET email = $1 WHERE company_id = $2 AND id = $3`, [email, company.companyId, userId])
  }
  const browser = `browser-${Math.random().toString(36).slice(2)}-${(addresses++).toString(36)}`
  const link = await app.call("POST", "/v1/auth/email-links", { body: { email, browser } })
  expect(link.status, JSON.stringify(link.body)).toBe(202)
  const mails = await app.query<{ body: string | null }>(
    `SELECT body FROM auth_mails WHERE lower(to_address) = lower($1) AND kind = 'email_code' ORDER BY id DESC LIMIT 1`,
    [email]
  )
  const code = /\b(\d{6})\b/u.exec(mails[0]?.body ?? "")?.[1]
  if (code === undefined) throw new Error(`no sign-in code queued for ${email}`)
  const signed = await app.call("POST", "/v1/auth/email-links/code", { body: { browser, code } })
  expect(signed.status, JSON.stringify(signed.body)).toBe(201)
  return { secret: signed.body.secret as string, userId, email }
}

/** A new person of `role` in the company, signed in: for a CPA's session, or a second owner's. */
export const signedInPerson = async (
  app: TestApp,
  company: { readonly companyId: string; readonly ownerKey: string; readonly ownerId: number },
  role: "owner" | "cpa" | "accountant" | "staff" = "owner"
): Promise<SignedIn> => {
  const made = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: `Signed-in ${role}`, role } })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return signInAs(app, company, made.body.id as number)
}
