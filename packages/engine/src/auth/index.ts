import { Auth } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as AuthMail from "./AuthMail.ts"
import * as EmailLinks from "./EmailLinks.ts"
import * as Passkeys from "./Passkeys.ts"
import * as SecondFactor from "./SecondFactor.ts"
import * as Security from "./Security.ts"
import * as Sessions from "./Sessions.ts"

/** Sign-in and security (spec 3-endpoints-b 4.14): a handler for every operation the api's auth area declares. */
export const area = Area.make({
  name: "auth",
  operations: Auth.operations,
  handlers: [...EmailLinks.handlers, ...SecondFactor.handlers, ...Passkeys.handlers, ...Security.handlers, ...Sessions.handlers],
  jobKinds: { [AuthMail.jobKind]: AuthMail.job }
})

export * as SignInRules from "./SignInRules.ts"
export * as TotpRules from "./TotpRules.ts"
export * as PasskeyRules from "./PasskeyRules.ts"
