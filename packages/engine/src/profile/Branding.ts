import { Effect } from "effect"
import { Profile } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as ProfileStore from "./ProfileStore.ts"

/**
 * The profile as documents print it, for the areas that draw them (sales' invoices, estimates,
 * sales receipts and credit memos): the profile as a non-administrator sees it (the EIN only when
 * `show_ein`, and then in full), and the logo's bytes when it is a PNG (pdf-lib draws PNGs, not SVGs).
 */
export interface Branding {
  readonly profile: Profile.Records.Profile
  readonly einShown: string | null
  readonly logoPng: Uint8Array | null
}

export const forDocuments = Effect.fn("Branding.forDocuments")(function*(company: string) {
  const row = yield* ProfileStore.load(company)
  const profile = ProfileStore.present(row, true)
  return {
    profile,
    einShown: profile.show_ein ? profile.ein : null,
    logoPng: row?.logo_media_type === "image/png" ? Row.bytesOrNull(row.logo) : null
  } satisfies Branding
})

/** The profile's text split into printed lines (at most `max`, blank ones dropped). */
const linesOf = (text: string | null, max: number): Array<string> =>
  (text ?? "").split(/\r?\n/u).map((line) => line.trim()).filter((line) => line !== "").slice(0, max)

/**
 * The letterhead a document prints: the legal name (else the company's name), then one short line
 * each for the DBA, the address, phone, email, website and the tax ids shown; the brand colour,
 * the PNG logo, payment instructions and footer as lines. Pure, so the preview and every sales
 * document print the profile the same way.
 */
export const letterhead = (branding: Branding, companyName: string) => {
  const p = branding.profile
  const cityLine = [p.city, [p.region, p.postal_code].filter((part) => part !== null && part !== "").join(" ")]
    .filter((part) => part !== null && part !== "").join(", ")
  const details = [
    p.dba === null ? null : `DBA ${p.dba}`,
    p.address_line1,
    p.address_line2,
    cityLine === "" ? null : cityLine,
    p.address_line1 === null && cityLine === "" ? null : p.country,
    [p.phone, p.email, p.website].filter((part) => part !== null && part !== "").join("  ·  "),
    branding.einShown === null ? null : `EIN ${branding.einShown}`,
    p.sales_tax_id === null ? null : `Sales tax ID ${p.sales_tax_id}`
  ].filter((part): part is string => part !== null && part !== "")
  return {
    name: p.legal_name ?? companyName,
    details,
    brandColor: p.brand_color,
    logoPng: branding.logoPng,
    paymentInstructions: linesOf(p.payment_instructions, Profile.Records.limits.textLinesMax),
    footer: linesOf(p.footer_text, Profile.Records.limits.textLinesMax)
  }
}
