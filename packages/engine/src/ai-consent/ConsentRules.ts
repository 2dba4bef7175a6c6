import type { AiConsent } from "@ledger/api"
import * as Secret from "../kernel/Secret.ts"
import { addYears } from "../kernel/values/Calendar.ts"

/**
 * The pure rules of section 7216 consent (spec 4.4, concepts 3.10, docs/ai-apps.md): the
 * provider registry, the frozen consent text, validity, and whether an agent is covered.
 */

export type Provider = typeof AiConsent.Consents.Provider.Type

export interface ProviderInfo {
  readonly provider: string
  readonly name: string
  readonly location: string
  readonly data_handling: string
}

export const registry: ReadonlyArray<ProviderInfo> = [
  { provider: "provider_a", name: "Provider A", location: "United States", data_handling: "API inputs not used for training; retained up to 30 days for abuse monitoring." },
  { provider: "provider_b", name: "Provider B", location: "United States", data_handling: "API inputs not used for training; zero-retention available by agreement." },
  { provider: "provider_c", name: "Provider C", location: "United States and European Union", data_handling: "Enterprise terms: no training on inputs; regional processing available." },
  { provider: "provider_d", name: "Provider D", location: "European Union", data_handling: "Processed in the EU; inputs deleted after processing." },
  { provider: "other", name: "Other (named in the consent)", location: "As named in the consent", data_handling: "As described by the provider named in the consent." }
]

const nameOf = (provider: string, otherName: string | null | undefined) =>
  provider === "other" ? `${otherName ?? "another provider"}` : registry.find((info) => info.provider === provider)?.name ?? provider

const categoryText: Record<string, string> = {
  books: "your books (accounts, journal entries and balances)",
  bank_lines: "bank and card transactions",
  documents: "invoices, bills and other documents",
  receipts: "receipts and their images",
  contacts: "customer and vendor contact details",
  tax_mappings: "tax form mappings",
  tax_forms: "tax forms and their figures"
}

const purposeText: Record<string, string> = {
  bookkeeping: "bookkeeping",
  reconciliation: "reconciling accounts",
  tax_preparation_support: "supporting the preparation of your tax returns",
  review: "reviewing your books",
  support: "answering your support questions",
  other: "the purpose described below"
}

export interface TemplateInput {
  readonly companyName: string
  readonly providers: ReadonlyArray<string>
  readonly provider_other_name?: string | undefined
  readonly provider_other_country?: string | undefined
  readonly data_categories: ReadonlyArray<string>
  readonly purposes: ReadonlyArray<string>
  readonly purpose_detail?: string | undefined
  readonly valid_until?: string | undefined
  readonly firmName?: string | null | undefined
}

/** The consent text: fixed wording from the template with the request's choices, frozen at request. */
export const templateText = (input: TemplateInput): string => {
  const who = input.firmName === null || input.firmName === undefined ? "Ledger and the people you authorize" : input.firmName
  const providers = input.providers.map((provider) =>
    provider === "other"
      ? `- ${nameOf(provider, input.provider_other_name)} (${input.provider_other_country ?? "country not stated"})`
      : `- ${nameOf(provider, null)} (${registry.find((info) => info.provider === provider)?.location ?? ""})`)
  return [
    "CONSENT TO DISCLOSE TAX RETURN INFORMATION TO ARTIFICIAL-INTELLIGENCE SERVICE PROVIDERS",
    "",
    `Taxpayer: ${input.companyName}`,
    "",
    `Federal law requires this consent form be provided to you. Unless authorized by law, we cannot disclose your tax return information to third parties for purposes other than the preparation and filing of your tax return without your consent. By signing, you consent to ${who} disclosing the information below to the following AI service providers:`,
    ...providers,
    "",
    "Information disclosed:",
    ...input.data_categories.map((category) => `- ${categoryText[category] ?? category}`),
    "",
    "Purposes:",
    ...input.purposes.map((purpose) => `- ${purposeText[purpose] ?? purpose}`),
    ...(input.purpose_detail === undefined ? [] : ["", `Details: ${input.purpose_detail}`]),
    "",
    `This consent is valid until ${input.valid_until ?? "one year after it is signed"}, unless you revoke it earlier. You may revoke it at any time.`,
    "If you believe your tax return information has been disclosed or used improperly in a manner unauthorized by law or without your permission, you may contact the Treasury Inspector General for Tax Administration (TIGTA) by telephone at 1-800-366-4484, or by email at complaints@tigta.treas.gov."
  ].join("\n")
}

export const textHash = (text: string): string => Secret.sha256Hex(text)

/** Why a requested end date is refused on `today`, or null: after today and at most three years on. */
export const validUntilProblem = (validUntil: string | undefined, today: string): string | null => {
  if (validUntil === undefined) return null
  if (validUntil <= today) return "valid_until must be after today."
  if (validUntil > addYears(today, 3)) return "valid_until is at most three years away."
  return null
}

/** The end of a consent signed on `signedOn`: the requested date capped at three years, else one year on. */
export const validUntilAtSigning = (requested: string | null, signedOn: string): string => {
  const cap = addYears(signedOn, 3)
  if (requested === null) return addYears(signedOn, 1)
  return requested > cap ? cap : requested
}

export type Status = "pending" | "valid_now" | "superseded" | "expired" | "revoked" | "cancelled"

/** The status as read on `today`: a signed consent past its end date has expired. */
export const statusOn = (stored: Status, validUntil: string | null, today: string): Status =>
  stored === "valid_now" && validUntil !== null && validUntil < today ? "expired" : stored

/** The providers that need no consent: none at all, or a model run by the company itself. */
export const needsNoConsent = (provider: string | null): boolean => provider === "self_hosted" || provider === "none"

/** Whether an agent with `provider` is covered by the consents in force (their accepted providers). */
export const covered = (provider: string | null, accepted: ReadonlyArray<ReadonlyArray<string>>): boolean =>
  provider !== null && (needsNoConsent(provider) || accepted.some((providers) => providers.includes(provider)))

export { addYears }
