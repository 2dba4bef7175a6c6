/** Sign-in and security (spec 3-endpoints-b 4.14): public sign-in steps, sessions, and a person's own settings. */
import * as Security from "./Security.ts"
import * as SignIn from "./SignIn.ts"

export * as Security from "./Security.ts"
export * as Shared from "./Shared.ts"
export * as SignIn from "./SignIn.ts"

export const operations = [...SignIn.operations, ...Security.operations] as const
