import { Profile } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as ProfileHandlers from "./Profile.ts"

/** The company profile (spec 3-endpoints-b 4.5): what documents say about the company, its logo, and a preview. */
export const area = Area.make({
  name: "profile",
  operations: Profile.operations,
  handlers: ProfileHandlers.handlers
})

/** The profile as documents print it, for the areas that draw documents (sales). */
export * as Branding from "./Branding.ts"
