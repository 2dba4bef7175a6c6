import { Auth } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as AuthMail from "./common/AuthMail.ts"
import * as EmailLinks from "./factors/EmailLinks.ts"
import * as Passkeys from "./factors/Passkeys.ts"
import * as SecondFactor from "./factors/SecondFactor.ts"
import * as Security from "./Security.ts"
import * as SessionCredential from "./SessionCredential.ts"
import * as Sessions from "./Sessions.ts"

/** Sign-in and security (spec 3-endpoints-b 4.14): a handler for every operation the api's auth area declares. */
export const area = Area.make({
  name: "auth",
  operations: Auth.operations,
  handlers: [...EmailLinks.handlers, ...SecondFactor.handlers, ...Passkeys.handlers, ...Security.handlers, ...Sessions.handlers],
  jobKinds: { [AuthMail.jobKind]: AuthMail.job },
  // A person's web session, on the company door (SessionCredential.ts; firm sessions are the firms area's).
  credentialStrategies: [SessionCredential.strategy]
})

export * as SignInRules from "./common/SignInRules.ts"
export * as TotpRules from "./factors/TotpRules.ts"
export * as PasskeyRules from "./factors/PasskeyRules.ts"
export * as Throttle from "./common/Throttle.ts"
