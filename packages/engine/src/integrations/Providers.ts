import type { Integrations } from "@ledger/api"
import type { Kind } from "./MappingRules.ts"

/**
 * The provider registry (spec 4.2): built providers have an adapter and a fake; coming ones are
 * listed so people know. Identifiers are the spec's neutral values (DECISIONS.md).
 */
export interface ProviderInfo extends Omit<Integrations.Connections.Provider, "configured"> {
  /** The mapping kinds its objects carry: only these can leave a mapping gap. */
  readonly kinds: ReadonlyArray<Kind>
}

export const all: ReadonlyArray<ProviderInfo> = [
  {
    provider: "provider_a",
    name: "Payment processor",
    kind: "payment_processor",
    status: "built",
    object_types: ["charge", "refund", "dispute", "payout"],
    kinds: ["category", "fee", "refund", "payout"]
  },
  {
    provider: "provider_b",
    name: "Storefront",
    kind: "storefront",
    status: "built",
    object_types: ["order", "refund"],
    kinds: ["product", "discount", "shipping", "tax", "tip"]
  },
  { provider: "provider_c", name: "Point of sale", kind: "point_of_sale", status: "coming", object_types: [], kinds: [] },
  { provider: "provider_d", name: "Marketplace", kind: "storefront", status: "coming", object_types: [], kinds: [] }
]

export const find = (provider: string): ProviderInfo | undefined => all.find((candidate) => candidate.provider === provider)

export const wire = ({ kinds: _kinds, ...provider }: ProviderInfo) => provider
