import { Effect } from "effect"
import type { Profile } from "@ledger/api"
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
