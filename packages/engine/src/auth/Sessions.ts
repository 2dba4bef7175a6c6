import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Auth } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Row from "../kernel/Row.ts"
import * as StepUp from "../kernel/StepUp.ts"
import * as AuthMail from "./common/AuthMail.ts"
import * as Factors from "./factors/Factors.ts"
import { auditFirmLevel, ownSession } from "./common/Guard.ts"
import * as PasskeyRules from "./factors/PasskeyRules.ts"
import * as PasskeyStore from "./factors/PasskeyStore.ts"
import * as SessionStore from "./common/SessionStore.ts"
import { limits, stepUpAllowed } from "./common/SignInRules.ts"

/** Sessions and step-up (spec 4.14, 5.5): sign out, revoke the others, step up, change the address. */

const signOut = Handler.make(Auth.SignIn.signOut, () =>
  Effect.gen(function*() {
    const own = yield* ownSession
    yield* SessionStore.revoke(own.sessionId, own.person, own.request.now, "signed out")
    yield* auditFirmLevel(own, { targetType: "session", targetId: own.sessionId })
    return { body: { signed_out: true as const, session_id: own.sessionId }, audit: { targetType: "session", targetId: own.sessionId } }
  }))

const revokeOthers = Handler.make(Auth.Security.revokeOtherSessions, ({ body }) =>
  Effect.gen(function*() {
    const own = yield* ownSession
    const revoked = yield* SessionStore.revokeOthers(own.person, own.sessionId, own.request.now, body.reason ?? "revoked by the person")
    const info = yield* SessionStore.loadPerson(own.person)
    yield* auditFirmLevel(own, { targetType: "session", details: { revoked } })
    if (revoked > 0) yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, `${revoked} other session(s) were signed out`, own.request.now)
    return { body: { revoked }, audit: { targetType: "session", reason: body.reason ?? null, details: { revoked } } }
  }))

/**
 * Step-ups tried by this person in the last hour, refused ones included, read from the audit log
 * (the pipeline audits refusals outside the rolled-back transaction). A firm member at the firm
 * level has no company log: their step-ups are counted from the firm's log, where the handler
 * records the ones that succeed (docs/decisions/1006-firm-members-sign-in.md).
 */
const stepUpsLastHour = Effect.fn("Sessions.stepUpsLastHour")(function*(actor: { readonly companyId: string | null; readonly firmId: number | null; readonly type: string; readonly id: number | null }, now: string) {
  const sql = yield* SqlClient.SqlClient
  const since = new Date(Date.parse(now) - 3_600_000).toISOString()
  if (actor.companyId === null) {
    if (actor.firmId === null) return 0
    const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM firm_audit_events WHERE firm_id = ${actor.firmId}
      AND action = 'stepUp' AND principal_type = ${actor.type} AND principal_id = ${String(actor.id)} AND occurred_at > ${since}`.pipe(Effect.orDie)
    return Row.int(rows[0]!.count)
  }
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM audit_events WHERE company_id = ${actor.companyId}
    AND action = 'stepUp' AND principal_type = ${actor.type} AND principal_id = ${String(actor.id)} AND occurred_at > ${since}`.pipe(Effect.orDie)
  return Row.int(rows[0]!.count)
})

const stepUpChallenge = Handler.make(Auth.Security.stepUpChallenge, () =>
  Effect.gen(function*() {
    const own = yield* ownSession
    const passkeys = yield* PasskeyStore.listOf(own.key)
    const methods: Array<"passkey" | "totp" | "recovery_code"> = passkeys.length > 0 ? ["passkey"] : []
    methods.push(...(yield* Factors.methodsOf(own.key)))
    if (passkeys.length === 0) {
      return { body: { challenge: null, options: null, methods, expires_at: new Date(Date.parse(own.request.now) + limits.challengeValidMs).toISOString() } }
    }
    const rp = yield* PasskeyStore.relyingParty
    const options = yield* PasskeyRules.authenticationOptions(rp, yield* PasskeyStore.challengeBytes, passkeys.map((row) => String(row.credential_id)))
    const expiresAt = yield* PasskeyStore.saveChallenge(options.challenge, "step_up", own.request.now, { person: own.key, sessionId: own.sessionId })
    return { body: { challenge: options.challenge, options: options as unknown as Record<string, unknown>, methods, expires_at: expiresAt } }
  }))

const refusedStepUp = (reason: string) => ApiError.fail("step_up_required", `Step-up refused: ${reason}`, { reason })

const stepUp = Handler.make(Auth.Security.stepUp, ({ body }) =>
  Effect.gen(function*() {
    const own = yield* ownSession
    if (!stepUpAllowed(yield* stepUpsLastHour(own.actor, own.request.now))) {
      return yield* Effect.fail(ApiError.fail("rate_limited", "At most 5 step-ups an hour.", { retry_after_seconds: 3600 }))
    }
    const given = [body.credential, body.totp_code, body.recovery_code].filter((value) => value !== undefined).length
    if (given !== 1) return yield* Effect.fail(ApiError.validationFailed("Give one of credential (with challenge), totp_code, recovery_code."))
    let method: "passkey" | "totp" | "recovery_code"
    if (body.credential !== undefined) {
      method = "passkey"
      const rp = yield* PasskeyStore.relyingParty
      const challenge = body.challenge ?? PasskeyRules.challengeOf(body.credential)
      if (challenge !== PasskeyRules.challengeOf(body.credential) || !(yield* PasskeyStore.takeChallenge(challenge, "step_up", own.request.now, own.sessionId))) {
        return yield* Effect.fail(refusedStepUp("the challenge is unknown, used or expired"))
      }
      const row = yield* PasskeyStore.byCredentialId(body.credential.id, own.key)
      if (row === null) return yield* Effect.fail(refusedStepUp("not one of your passkeys"))
      const count = yield* PasskeyRules.verifyAssertion(rp, body.credential, challenge!, PasskeyStore.storedOf(row)).pipe(
        Effect.mapError((refusal) => refusedStepUp(refusal.reason))
      )
      yield* PasskeyStore.recordUse(Row.int(row.id), count, own.request.now)
    } else if (body.totp_code !== undefined) {
      method = "totp"
      if (!(yield* Factors.useTotp(own.key, body.totp_code, own.request.now))) return yield* Effect.fail(refusedStepUp("wrong authenticator code"))
    } else {
      method = "recovery_code"
      if (!(yield* Factors.useRecoveryCode(own.key, body.recovery_code!, own.request.now))) return yield* Effect.fail(refusedStepUp("wrong recovery code"))
    }
    yield* SessionStore.markSteppedUp(own.sessionId, own.person, own.request.now)
    yield* auditFirmLevel(own, { targetType: "session", targetId: own.sessionId, details: { method } })
    const info = yield* SessionStore.loadPerson(own.person)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, `Identity confirmed (step-up with ${method})`, own.request.now)
    return {
      body: { stepped_up_until: new Date(Date.parse(own.request.now) + StepUp.validMs).toISOString(), method },
      audit: { targetType: "session", targetId: own.sessionId, details: { method } }
    }
  }))

const changeEmail = Handler.make(Auth.Security.changeEmail, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    const info = yield* SessionStore.loadPerson(own.person)
    if (own.person.type !== "user" || info === null) return yield* Effect.fail(ApiError.fail("conflict", "Firm members change their address in the firm."))
    const email = body.email?.toLowerCase() ?? info.email
    if (email === null) return yield* Effect.fail(ApiError.validationFailed("You have no address yet: give one.", [{ path: ["body", "email"], message: "Required" }]))
    const changed = email !== info.email
    if (changed) {
      yield* StepUp.requireStepUp
      yield* sql`UPDATE users SET email = ${email}, email_verified_at = NULL WHERE company_id = ${own.person.companyId} AND id = ${own.person.id}`.pipe(Effect.orDie)
      yield* AuthMail.notice(own.person.companyId, info.email, `Your sign-in address was changed to ${email}`, own.request.now)
    }
    const verified = !changed && info.emailVerified
    if (!verified) {
      yield* AuthMail.queue({
        companyId: own.person.companyId,
        kind: "verify_email",
        to: email,
        subject: "Confirm your Ledger sign-in address",
        body: "This address was set for signing in to Ledger. Sign in once with an email code (POST /v1/auth/email-links) to confirm it."
      }, own.request.now)
    }
    return { body: { email, email_verified: verified, verification_sent: !verified }, audit: { targetType: "user", targetId: own.person.id } }
  }))

export const handlers = [signOut, revokeOthers, stepUpChallenge, stepUp, changeEmail]
