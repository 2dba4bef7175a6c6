import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Auth } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { Entropy } from "../../ports/Entropy.ts"
import { RelyingParty } from "../../ports/RelyingParty.ts"
import * as AuthMail from "../common/AuthMail.ts"
import * as Factors from "./Factors.ts"
import { auditPublic } from "../common/Guard.ts"
import * as SessionStore from "../common/SessionStore.ts"
import { codeAttempt, codeHash, type LinkState, limits, parsePerson, personKey, sameHash, sixDigits } from "../common/SignInRules.ts"
import * as Throttle from "../common/Throttle.ts"
import * as Tickets from "./Tickets.ts"

/**
 * Email-code sign-in (spec 4.14, DECISIONS.md): a link and a 6-digit code mailed to the address,
 * bound to the browser that asked (its random cookie value, stored hashed), 15 minutes, once,
 * five wrong codes lock. Public steps run without the pipeline's transaction, so each opens its
 * own: a wrong code's count commits even though the request is refused.
 */

const refused = (outcome: string, message: string, extra: Record<string, unknown> = {}) =>
  ApiError.fail("sign_in_refused", message, { outcome, ...extra })

const mailText = (code: string, appOrigin: string | null, console: boolean) =>
  [
    `Your Ledger sign-in code is ${code}.`,
    "",
    appOrigin === null ? "" : `Or open ${appOrigin}/${console ? "console" : "sign-in/email"}?code=${code} in the browser you asked from.`,
    "The code works once, for 15 minutes, in the browser that asked for it.",
    "If you did not ask to sign in, ignore this message."
  ].join("\n")

/**
 * The request does the same work whatever the address: the abuse limits, both look-ups of who
 * the address names, the link, a mail row and its job. An unknown address's mail row is `void`
 * (no body, never sent); the worker mails a known person's code and records the request in their
 * log (AuthMail.ts), so neither the answer nor its time tells known from unknown.
 */
const requestLink = Handler.make(Auth.SignIn.requestEmailLink, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const entropy = yield* Entropy
    const rp = yield* Effect.serviceOption(RelyingParty)
    const address = body.email.toLowerCase()
    const browserHash = yield* Secret.hash(body.browser)
    yield* Throttle.take(Throttle.emailLinkBuckets(address, browserHash, Throttle.clientOf(request)))
    const expiresAt = new Date(Date.parse(request.now) + limits.emailCodeValidMs).toISOString()
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`UPDATE auth_email_links SET status = 'replaced' WHERE browser_hash = ${browserHash} AND status = 'pending'`
      // Links a day past their end only fed the code check of that day: gone.
      yield* sql`DELETE FROM auth_email_links WHERE expires_at < ${new Date(Date.parse(request.now) - 86_400_000).toISOString()}`
      const code = sixDigits(yield* entropy.bytes(4))
      const person = yield* SessionStore.personByEmail(address, body.principal_type ?? "user")
      const hash = codeHash(browserHash, code)
      // Unknown addresses get a row too (never mailed, never signing in), so both answers cost the same.
      yield* sql`INSERT INTO auth_email_links ${sql.insert({
        browser_hash: browserHash,
        address,
        person: person === null ? null : personKey(person),
        company_id: person?.type === "user" ? person.companyId : null,
        code_hash: hash,
        created_at: request.now,
        expires_at: expiresAt
      })}`
      const origin = Option.isSome(rp) ? rp.value.origin : null
      yield* AuthMail.queue({
        companyId: person?.type === "user" ? person.companyId : null,
        person: person === null ? null : personKey(person),
        kind: "email_code",
        to: address,
        subject: `Your Ledger sign-in code: ${code}`,
        body: mailText(code, origin, person?.type === "firm_member")
      }, request.now)
      return { status: 202, body: { status: "sent" as const, expires_at: expiresAt } }
    })).pipe(Effect.catchTag("SqlError", Effect.die))
  }))

/** The browser's links of the last day, newest first, locked; and what the code comes to against them. */
const attempt = Effect.fn("EmailLinks.attempt")(function*(browserHash: string, code: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const since = new Date(Date.parse(now) - 24 * 3_600_000).toISOString()
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM auth_email_links WHERE browser_hash = ${browserHash}
    AND created_at > ${since} ORDER BY created_at DESC, id DESC LIMIT 20 FOR UPDATE`.pipe(Effect.orDie)
  const hash = codeHash(browserHash, code)
  const stateOf = (row: Record<string, unknown>): LinkState => ({
    status: row.status as LinkState["status"],
    wrongCodes: Row.int(row.wrong_codes),
    expiresAtMs: Date.parse(Row.iso(row.expires_at)),
    matches: sameHash(String(row.code_hash), hash)
  })
  const latest = rows[0]
  const older = rows.slice(1).find((row) => sameHash(String(row.code_hash), hash))
  const matchesOlder = older === undefined ? null : older.status === "used" ? "used" as const : "replaced" as const
  return { latest, outcome: codeAttempt(latest === undefined ? null : stateOf(latest), matchesOlder, Date.parse(now)) }
})

const signIn = Handler.make(Auth.SignIn.signInWithEmailCode, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const browserHash = yield* Secret.hash(body.browser)
    yield* Throttle.takePublicStep
    const result = yield* sql.withTransaction(Effect.gen(function*() {
      const { latest, outcome } = yield* attempt(browserHash, body.code, request.now)
      const person = latest === undefined || latest.person === null ? null : parsePerson(String(latest.person))
      const info = person === null ? null : yield* SessionStore.loadPerson(person)
      if (outcome._tag === "Refused") {
        if (info !== null) yield* auditPublic(info.person, info.name, { ok: false, status: 401, errorType: "sign_in_refused", details: { outcome: outcome.outcome } })
        return { _tag: "Refused" as const, error: refused(outcome.outcome, "This code cannot sign you in: ask for a new one.") }
      }
      if (outcome._tag === "Wrong") {
        // Counted for unknown addresses too: the answers must not tell them apart.
        yield* sql`UPDATE auth_email_links SET wrong_codes = wrong_codes + 1 ${outcome.locks ? sql`, status = 'locked'` : sql``}
          WHERE id = ${Row.int(latest!.id)}`
        if (info !== null) {
          yield* auditPublic(info.person, info.name, { ok: false, status: 401, errorType: "sign_in_refused", details: { outcome: outcome.locks ? "locked" : "wrong_code" } })
          if (outcome.locks) yield* AuthMail.notice(info.person.type === "user" ? info.person.companyId : null, info.email, "Sign-in codes locked after five wrong codes", request.now)
        }
        return {
          _tag: "Refused" as const,
          error: outcome.locks
            ? refused("locked", "Five wrong codes: this sign-in is locked. Ask for a new code.")
            : refused("wrong_code", "That code is not right.", { attempts_left: outcome.attemptsLeft })
        }
      }
      if (info === null) return { _tag: "Refused" as const, error: refused("invalid", "This code cannot sign you in: ask for a new one.") }
      yield* sql`UPDATE auth_email_links SET status = 'used', used_at = ${request.now} WHERE id = ${Row.int(latest!.id)}`
      yield* SessionStore.markEmailVerified(info.person, request.now)
      if (yield* Factors.hasTotp(personKey(info.person))) {
        yield* auditPublic(info.person, info.name, { ok: true, status: 200, details: { second_factor_required: true } })
        return { _tag: "Done" as const, status: 200, body: yield* Tickets.open(info.person, browserHash, "email_code", request.now) }
      }
      const signedIn = yield* SessionStore.create(info, "email_code", request.now)
      yield* auditPublic(info.person, info.name, { ok: true, status: 201, details: { session_id: signedIn.session.id, method: "email_code" } })
      yield* AuthMail.notice(info.person.type === "user" ? info.person.companyId : null, info.email, "New sign-in with an email code", request.now)
      return { _tag: "Done" as const, status: 201, body: signedIn }
    })).pipe(Effect.catchTag("SqlError", Effect.die))
    if (result._tag === "Refused") return yield* Effect.fail(result.error)
    return { status: result.status, body: result.body }
  }))

export const handlers = [requestLink, signIn]
