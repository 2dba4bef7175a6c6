import * as Consents from "./Consents.ts"
import * as Requirement from "./Requirement.ts"

/** AI consent: section 7216 records (spec 3-endpoints-b 4.4). */
export { Consents, Requirement }

export const operations = [
  Requirement.listAiProviders,
  Requirement.getAi7216,
  Requirement.setAi7216,
  Consents.listAiConsents,
  Consents.createAiConsent,
  Consents.getAiConsentTemplate,
  Consents.getAiConsent,
  Consents.getAiConsentSignedPdf,
  Consents.signAiConsent,
  Consents.uploadAiConsent,
  Consents.revokeAiConsent,
  Requirement.getAi7216Log,
  Requirement.setAgentAiProvider
] as const
