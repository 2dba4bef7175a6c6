/** The company profile (spec 3-endpoints-b 4.5). */
import * as Profile from "./Profile.ts"

export * as Records from "./Profile.ts"

export const operations = Profile.operations
