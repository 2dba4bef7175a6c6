import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Auth } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import * as AuthMail from "../common/AuthMail.ts"
import * as Factors from "./Factors.ts"
import { auditPublic } from "../common/Guard.ts"
import * as SessionStore from "../common/SessionStore.ts"
import { limits, parsePerson, ticketAttempt } from "../common/SignInRules.ts"
import * as Throttle from "../common/Throttle.ts"
import * as Tickets from "./Tickets.ts"

/** The second step of an email-code sign-in (spec 4.14): an authenticator code or a recovery code. */

const refused = (outcome: string, message: string, extra: Record<string, unknown> = {}) =>
  ApiError.fail("second_factor_refused", message, { outcome, ...extra })

const status = Handler.make(Auth.SignIn.secondFactorStatus, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    yield* Throttle.takePublicStep
    const row = yield* Tickets.load(body.ticket, yield* Secret.hash(body.browser))
    if (row === null) return yield* Effect.fail(refused("invalid", "No such ticket for this browser."))
    return {
      body: {
        status: Tickets.statusOf(row, Date.parse(request.now)),
        methods: yield* Factors.methodsOf(String(row.person)),
        attempts_left: Math.max(0, limits.wrongCodesMax - Row.int(row.wrong_codes)),
        expires_at: Row.iso(row.expires_at)
      }
    }
  }))

const complete = Handler.make(Auth.SignIn.completeSecondFactor, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    if ((body.totp_code === undefined) === (body.recovery_code === undefined)) {
      return yield* Effect.fail(ApiError.validationFailed("Give exactly one of totp_code and recovery_code.", [{ path: ["body"], message: "One of totp_code, recovery_code" }]))
    }
    const browserHash = yield* Secret.hash(body.browser)
    yield* Throttle.takePublicStep
    const result = yield* sql.withTransaction(Effect.gen(function*() {
      const row = yield* Tickets.load(body.ticket, browserHash, true)
      if (row === null) return { _tag: "Refused" as const, error: refused("invalid", "No such ticket for this browser.") }
      const state = Tickets.statusOf(row, Date.parse(request.now))
      if (state !== "open") return { _tag: "Refused" as const, error: refused(state, `This ticket is ${state}: sign in again.`) }
      const person = parsePerson(String(row.person))!
      const info = yield* SessionStore.loadPerson(person)
      if (info === null) return { _tag: "Refused" as const, error: refused("invalid", "No such ticket for this browser.") }
      const method = body.totp_code !== undefined ? "totp" : "recovery_code"
      const ok = body.totp_code !== undefined
        ? yield* Factors.useTotp(String(row.person), body.totp_code, request.now)
        : yield* Factors.useRecoveryCode(String(row.person), body.recovery_code!, request.now)
      if (!ok) {
        const next = ticketAttempt(Row.int(row.wrong_codes))
        yield* sql`UPDATE auth_tickets SET wrong_codes = wrong_codes + 1 ${next.locks ? sql`, status = 'locked'` : sql``} WHERE id = ${Row.int(row.id)}`
        yield* auditPublic(person, info.name, { ok: false, status: 401, errorType: "second_factor_refused", details: { method, outcome: next.locks ? "locked" : "wrong_code" } })
        if (next.locks) yield* AuthMail.notice(info.person.type === "user" ? info.person.companyId : null, info.email, "A sign-in was stopped after five wrong codes", request.now)
        return {
          _tag: "Refused" as const,
          error: next.locks
            ? refused("locked", "Five wrong codes: this sign-in has ended. Start again.")
            : refused("wrong_code", "That code is not right.", { attempts_left: next.attemptsLeft })
        }
      }
      yield* sql`UPDATE auth_tickets SET status = 'used' WHERE id = ${Row.int(row.id)}`
      const signedIn = yield* SessionStore.create(info, `${String(row.first_factor)}+${method}`, request.now)
      yield* auditPublic(person, info.name, { ok: true, status: 201, details: { session_id: signedIn.session.id, method: signedIn.session.method } })
      yield* AuthMail.notice(info.person.type === "user" ? info.person.companyId : null, info.email, `New sign-in (${signedIn.session.method})`, request.now)
      return { _tag: "Done" as const, body: signedIn }
    })).pipe(Effect.catchTag("SqlError", Effect.die))
    if (result._tag === "Refused") return yield* Effect.fail(result.error)
    return { status: 201, body: result.body }
  }))

export const handlers = [status, complete]
