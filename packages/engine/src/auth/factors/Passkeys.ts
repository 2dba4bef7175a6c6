import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Auth } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as StepUp from "../../kernel/StepUp.ts"
import * as AuthMail from "../common/AuthMail.ts"
import * as Factors from "./Factors.ts"
import { auditFirmLevel, auditPublic, ownSession } from "../common/Guard.ts"
import * as PasskeyRules from "./PasskeyRules.ts"
import * as PasskeyStore from "./PasskeyStore.ts"
import * as SessionStore from "../common/SessionStore.ts"
import { limits, parsePerson } from "../common/SignInRules.ts"
import * as Throttle from "../common/Throttle.ts"

/** Passkeys (spec 4.14): sign-in with one (two factors at once), and a person's own list of them. */

const refusedPasskey = (reason: string) => ApiError.fail("passkey_refused", "The passkey could not sign you in.", { reason })

const signInChallenge = Handler.make(Auth.SignIn.passkeyChallenge, () =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const rp = yield* PasskeyStore.relyingParty
    yield* Throttle.takePublicStep
    const options = yield* PasskeyRules.authenticationOptions(rp, yield* PasskeyStore.challengeBytes)
    const expiresAt = yield* PasskeyStore.saveChallenge(options.challenge, "sign_in", request.now)
    return { body: { options: options as unknown as Record<string, unknown>, expires_at: expiresAt } }
  }))

const signIn = Handler.make(Auth.SignIn.signInWithPasskey, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const rp = yield* PasskeyStore.relyingParty
    const challenge = PasskeyRules.challengeOf(body.credential)
    yield* Throttle.takePublicStep
    // The challenge is taken in its own transaction first: a replayed or forged message spends it.
    const live = yield* sql.withTransaction(PasskeyStore.takeChallenge(challenge, "sign_in", request.now)).pipe(Effect.orDie)
    if (!live) return yield* Effect.fail(refusedPasskey("The challenge is unknown, used or expired: ask for a new one."))
    const result = yield* sql.withTransaction(Effect.gen(function*() {
      const row = yield* PasskeyStore.byCredentialId(body.credential.id)
      const person = row === null ? null : parsePerson(String(row.person))
      const info = person === null ? null : yield* SessionStore.loadPerson(person)
      if (row === null || info === null) return { _tag: "Refused" as const, reason: "This passkey is not registered here." }
      const verified = yield* Effect.result(PasskeyRules.verifyAssertion(rp, body.credential, challenge!, PasskeyStore.storedOf(row)))
      if (verified._tag === "Failure") {
        yield* auditPublic(info.person, info.name, { ok: false, status: 401, errorType: "passkey_refused", details: { reason: verified.failure.reason } })
        return { _tag: "Refused" as const, reason: verified.failure.reason }
      }
      yield* PasskeyStore.recordUse(Row.int(row.id), verified.success, request.now)
      const signedIn = yield* SessionStore.create(info, "passkey", request.now)
      yield* auditPublic(info.person, info.name, { ok: true, status: 201, details: { session_id: signedIn.session.id, method: "passkey" } })
      yield* AuthMail.notice(info.person.type === "user" ? info.person.companyId : null, info.email, "New sign-in with a passkey", request.now)
      return { _tag: "Done" as const, body: signedIn }
    })).pipe(Effect.catchTag("SqlError", Effect.die))
    if (result._tag === "Refused") return yield* Effect.fail(refusedPasskey(result.reason))
    return { status: 201, body: result.body }
  }))

const registrationOptions = Handler.make(Auth.Security.passkeyRegistrationOptions, () =>
  Effect.gen(function*() {
    const own = yield* ownSession
    const rp = yield* PasskeyStore.relyingParty
    const existing = yield* PasskeyStore.listOf(own.key)
    const options = yield* PasskeyRules.registrationOptions(
      rp,
      { handle: new TextEncoder().encode(own.key), name: own.actor.name },
      yield* PasskeyStore.challengeBytes,
      existing.map((row) => String(row.credential_id))
    )
    const expiresAt = yield* PasskeyStore.saveChallenge(options.challenge, "register", own.request.now, { person: own.key, sessionId: own.sessionId })
    return { body: { options: options as unknown as Record<string, unknown>, expires_at: expiresAt } }
  }))

const addPasskey = Handler.make(Auth.Security.addPasskey, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    yield* StepUp.requireStepUp
    const rp = yield* PasskeyStore.relyingParty
    const existing = yield* PasskeyStore.listOf(own.key)
    if (existing.length >= limits.passkeysPerPersonMax) {
      return yield* Effect.fail(ApiError.validationFailed(`At most ${limits.passkeysPerPersonMax} passkeys a person.`))
    }
    const challenge = PasskeyRules.challengeOf(body.credential)
    if (!(yield* PasskeyStore.takeChallenge(challenge, "register", own.request.now, own.sessionId))) {
      return yield* Effect.fail(refusedPasskey("The challenge is unknown, used or expired: ask for new options."))
    }
    const stored = yield* PasskeyRules.verifyRegistration(rp, body.credential, challenge!).pipe(
      Effect.mapError((refusal) => refusedPasskey(refusal.reason))
    )
    const taken = yield* sql`SELECT 1 FROM auth_passkeys WHERE credential_id = ${stored.credentialId}`.pipe(Effect.orDie)
    if (taken.length > 0) return yield* Effect.fail(ApiError.fail("conflict", "This passkey is registered already."))
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO auth_passkeys ${sql.insert({
      person: own.key,
      company_id: own.actor.companyId,
      credential_id: stored.credentialId,
      public_key: stored.publicKey,
      sign_count: stored.signCount,
      transports: JSON.stringify(stored.transports),
      name: body.name ?? `Passkey ${existing.length + 1}`,
      created_at: own.request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const info = yield* SessionStore.loadPerson(own.person)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, "A passkey was added", own.request.now)
    const passkey = PasskeyStore.toWire(rows[0]!)
    yield* auditFirmLevel(own, { targetType: "passkey", targetId: passkey.id })
    return { status: 201, body: passkey, audit: { targetType: "passkey", targetId: passkey.id } }
  }))

const removePasskey = Handler.make(Auth.Security.removePasskey, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    yield* StepUp.requireStepUp
    const existing = yield* PasskeyStore.listOf(own.key)
    if (!existing.some((row) => Row.int(row.id) === path.id)) return yield* Effect.fail(ApiError.notFound("passkey"))
    const info = yield* SessionStore.loadPerson(own.person)
    const otherFactors = existing.length - 1 + ((yield* Factors.hasTotp(own.key)) ? 1 : 0)
    if (info?.requireTwoStep === true && otherFactors === 0) {
      return yield* Effect.fail(ApiError.fail("last_second_factor", "Your company requires two-step sign-in: add another passkey or an authenticator app first."))
    }
    yield* sql`UPDATE auth_passkeys SET removed_at = ${own.request.now} WHERE id = ${path.id} AND person = ${own.key}`.pipe(Effect.orDie)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, "A passkey was removed", own.request.now)
    yield* auditFirmLevel(own, { targetType: "passkey", targetId: path.id })
    return { body: { removed: true as const, id: path.id }, audit: { targetType: "passkey", targetId: path.id, reason: body.reason ?? null } }
  }))

export const handlers = [signInChallenge, signIn, registrationOptions, addPasskey, removePasskey]
