import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Auth } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as StepUp from "../kernel/StepUp.ts"
import { Entropy } from "../ports/Entropy.ts"
import * as AuthMail from "./common/AuthMail.ts"
import * as Factors from "./factors/Factors.ts"
import { auditFirmLevel, ownSession } from "./common/Guard.ts"
import * as PasskeyStore from "./factors/PasskeyStore.ts"
import * as SessionStore from "./common/SessionStore.ts"
import * as TotpRules from "./factors/TotpRules.ts"

/** A person's own sign-in settings (spec 4.14): read, authenticator app, recovery codes, sessions, address. */

const getSecurity = Handler.make(Auth.Security.getSecurity, () =>
  Effect.gen(function*() {
    const own = yield* ownSession
    const info = yield* SessionStore.loadPerson(own.person)
    const totp = yield* Factors.totpRow(own.key)
    const recovery = yield* Factors.recoveryRemaining(own.key)
    const session = yield* SessionStore.current(own.sessionId, own.person, own.actor.name)
    return {
      body: {
        email: info?.email ?? null,
        email_verified: info?.emailVerified ?? false,
        passkeys: (yield* PasskeyStore.listOf(own.key)).map(PasskeyStore.toWire),
        authenticator_app: {
          enabled: totp !== null && totp.confirmed_at !== null,
          pending: totp !== null && totp.confirmed_at === null,
          confirmed_at: totp === null || totp.confirmed_at === null ? null : new Date(String(totp.confirmed_at)).toISOString()
        },
        recovery_codes: { remaining: recovery.remaining, created_at: recovery.createdAt },
        two_step_required: info?.requireTwoStep ?? false,
        session
      }
    }
  }))

const enrolTotp = Handler.make(Auth.Security.enrolTotp, () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    yield* StepUp.requireStepUp
    if (yield* Factors.hasTotp(own.key)) {
      return yield* Effect.fail(ApiError.fail("conflict", "An authenticator app is on already: turn it off first."))
    }
    const sealer = yield* Factors.sealer
    const entropy = yield* Entropy
    const secret = TotpRules.encodeSecret(yield* entropy.bytes(20))
    const sealed = yield* sealer.seal(secret, `totp:${own.key}`)
    yield* sql`INSERT INTO auth_totp ${sql.insert({ person: own.key, company_id: own.actor.companyId, sealed_secret: sealed, created_at: own.request.now })}
      ON CONFLICT (person) DO UPDATE SET sealed_secret = EXCLUDED.sealed_secret, confirmed_at = NULL, last_time_step = NULL,
        created_at = EXCLUDED.created_at`.pipe(Effect.orDie)
    const info = yield* SessionStore.loadPerson(own.person)
    const label = info?.email ?? own.actor.name
    yield* auditFirmLevel(own, { targetType: "authenticator_app" })
    return { body: { secret, otpauth_uri: TotpRules.otpauthUri(secret, label), confirmed: false as const }, audit: { targetType: "authenticator_app" } }
  }))

const wrongCode = () => ApiError.fail("validation_failed", "That code is not right (or was used already).", { issues: [{ path: ["body", "code"], message: "Wrong code" }] })

const confirmTotp = Handler.make(Auth.Security.confirmTotp, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    const pending = yield* Factors.totpRow(own.key)
    if (pending === null || pending.confirmed_at !== null) {
      return yield* Effect.fail(ApiError.fail("conflict", "No authenticator app is waiting to be confirmed: start with POST /v1/me/totp."))
    }
    if (!(yield* Factors.useTotp(own.key, body.code, own.request.now, true))) return yield* Effect.fail(wrongCode())
    yield* sql`UPDATE auth_totp SET confirmed_at = ${own.request.now} WHERE person = ${own.key}`.pipe(Effect.orDie)
    const info = yield* SessionStore.loadPerson(own.person)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, "Two-step sign-in with an authenticator app was turned on", own.request.now)
    yield* auditFirmLevel(own, { targetType: "authenticator_app", details: { enabled: true } })
    return { body: { enabled: true as const, confirmed_at: own.request.now }, audit: { targetType: "authenticator_app" } }
  }))

const disableTotp = Handler.make(Auth.Security.disableTotp, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const own = yield* ownSession
    yield* StepUp.requireStepUp
    if (!(yield* Factors.hasTotp(own.key))) return yield* Effect.fail(ApiError.fail("conflict", "No authenticator app is on."))
    const info = yield* SessionStore.loadPerson(own.person)
    const passkeys = yield* PasskeyStore.listOf(own.key)
    if (info?.requireTwoStep === true && passkeys.length === 0) {
      return yield* Effect.fail(ApiError.fail("last_second_factor", "Your company requires two-step sign-in: add a passkey first."))
    }
    if (!(yield* Factors.useTotp(own.key, body.code, own.request.now))) return yield* Effect.fail(wrongCode())
    yield* sql`DELETE FROM auth_totp WHERE person = ${own.key}`.pipe(Effect.orDie)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, "Two-step sign-in with an authenticator app was turned off", own.request.now)
    yield* auditFirmLevel(own, { targetType: "authenticator_app", details: { enabled: false } })
    return { body: { enabled: false as const }, audit: { targetType: "authenticator_app" } }
  }))

const recoveryCodes = Handler.make(Auth.Security.createRecoveryCodes, () =>
  Effect.gen(function*() {
    const own = yield* ownSession
    yield* StepUp.requireStepUp
    const codes = yield* Factors.issueRecoveryCodes(own.key, own.actor.companyId, own.request.now)
    const info = yield* SessionStore.loadPerson(own.person)
    yield* AuthMail.notice(own.actor.companyId, info?.email ?? null, "New recovery codes were made (the old ones stopped working)", own.request.now)
    yield* auditFirmLevel(own, { targetType: "recovery_codes", details: { count: codes.length } })
    return { body: { codes, created_at: own.request.now }, audit: { targetType: "recovery_codes", details: { count: codes.length } } }
  }))

export const handlers = [getSecurity, enrolTotp, confirmTotp, disableTotp, recoveryCodes]
