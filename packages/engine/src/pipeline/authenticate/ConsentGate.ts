/**
 * The section 7216 gate (spec 3-endpoints-b 4.4, concepts 3.10): with a consent requirement on, an
 * agent or AI app whose AI provider is undeclared, or not accepted by a signed consent in force,
 * is kept out. The database answers why (`ledger_ai_consent_gate`, migration 0025: `undeclared`,
 * `not_covered` or null) in the statement that reads the credential; this says it in words that
 * name the missing consent.
 */
export const consentMessage = (gate: unknown, provider: unknown, who: "agent" | "app"): string | null => {
  if (gate !== "undeclared" && gate !== "not_covered") return null
  const subject = who === "app" ? "this app's" : "this agent's"
  if (gate === "undeclared") {
    return `A section 7216 consent is required: declare ${subject} AI provider (POST /v1/agents/{id}/ai-provider), then get a consent covering it.`
  }
  return `A section 7216 consent is required: no signed consent in force accepts the provider ${String(provider)}.`
}
