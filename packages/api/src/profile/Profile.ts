import { Schema } from "effect"
import { DryRun, Empty, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"

const area = "4.5 Company profile"

/** Sizes of the profile (spec 8.2 for the logo; the rest are this implementation's, ADR 1210). */
export const limits = {
  pngBytesMax: 1024 * 1024,
  pngSideMax: 4096,
  svgBytesMax: 256 * 1024,
  /** base64 of a file somewhat over the larger limit (so that it is refused as too large, 413), with the JSON around it. */
  logoBase64CharactersMax: Math.ceil((1024 * 1024 + 64 * 1024) / 3) * 4,
  logoBodyBytesMax: Math.ceil((1024 * 1024 + 64 * 1024) / 3) * 4 + 16 * 1024,
  textLinesMax: 12,
  textCharactersMax: 2000,
  fieldLengthMax: 200
} as const

const Field = Schema.NullOr(Schema.String.check(Schema.isMaxLength(limits.fieldLengthMax)))
const Text = Schema.NullOr(Schema.String.check(Schema.isMaxLength(limits.textCharactersMax)))

export const Logo = Schema.Struct({
  media_type: Schema.Literals(["image/png", "image/svg+xml"]),
  size_bytes: Schema.Int,
  width: Schema.NullOr(Schema.Int),
  height: Schema.NullOr(Schema.Int),
  file_name: Schema.NullOr(Schema.String),
  updated_at: Timestamp
}).annotate({ identifier: "ProfileLogo" })

export const Profile = Schema.Struct({
  legal_name: Schema.NullOr(Schema.String),
  dba: Schema.NullOr(Schema.String),
  address_line1: Schema.NullOr(Schema.String),
  address_line2: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  region: Schema.NullOr(Schema.String),
  postal_code: Schema.NullOr(Schema.String),
  country: Schema.String,
  phone: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String),
  ein: Schema.NullOr(Schema.String).annotate({ description: "In full (12-3456789) for administrators; otherwise the last four digits only (XX-XXX6789)." }),
  show_ein: Schema.Boolean,
  sales_tax_id: Schema.NullOr(Schema.String),
  brand_color: Schema.NullOr(Schema.String),
  payment_instructions: Schema.NullOr(Schema.String),
  footer_text: Schema.NullOr(Schema.String),
  logo: Schema.NullOr(Logo),
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "CompanyProfile" })
export type Profile = typeof Profile.Type

export const getCompanyProfile = Operation.make({
  id: "getCompanyProfile", method: "GET", path: "/v1/company/profile", area,
  summary: "The company's profile: what its documents say about it.", scope: "read", mode: "R", success: Profile
})

export const updateCompanyProfile = Operation.make({
  id: "updateCompanyProfile", method: "POST", path: "/v1/company/profile", area,
  summary: "Change the profile. Only sent fields change; null or an empty string clears one.",
  description: "Website gets https:// when it has no scheme; EIN is 9 digits; brand_color a hex colour with contrast at least 3:1 on white; payment_instructions and footer_text at most 12 lines.",
  scope: "admin", mode: "-", peopleOnly: true,
  body: Schema.Struct({
    legal_name: Schema.optionalKey(Field.annotate({ description: "The company's legal name, printed on documents." })),
    dba: Schema.optionalKey(Field.annotate({ description: "The name the company does business as, when it differs." })),
    address_line1: Schema.optionalKey(Field.annotate({ description: "The first line of the street address." })),
    address_line2: Schema.optionalKey(Field.annotate({ description: "The second line of the street address (suite, floor)." })),
    city: Schema.optionalKey(Field.annotate({ description: "The address's city." })),
    region: Schema.optionalKey(Field.annotate({ description: "The address's state, province or region." })),
    postal_code: Schema.optionalKey(Field.annotate({ description: "The address's postal or ZIP code." })),
    country: Schema.optionalKey(Field.annotate({ description: "The address's country." })),
    phone: Schema.optionalKey(Field.annotate({ description: "The phone number printed on documents." })),
    email: Schema.optionalKey(Field.annotate({ description: "The email address printed on documents." })),
    website: Schema.optionalKey(Field.annotate({ description: "The website printed on documents; https:// is added when it has no scheme." })),
    ein: Schema.optionalKey(Field.annotate({ description: "The employer identification number, 9 digits." })),
    show_ein: Schema.optionalKey(Schema.Boolean.annotate({ description: "Print the EIN on documents." })),
    sales_tax_id: Schema.optionalKey(Field.annotate({ description: "The sales tax registration number printed on documents." })),
    brand_color: Schema.optionalKey(Field.annotate({ description: "A hex colour (#1f6feb) for document headings, with contrast at least 3:1 on white." })),
    payment_instructions: Schema.optionalKey(Text.annotate({ description: "How to pay, printed on invoices (at most 12 lines)." })),
    footer_text: Schema.optionalKey(Text.annotate({ description: "Text at the foot of every document (at most 12 lines)." })),
    dry_run: DryRun
  }),
  success: Profile
})

export const LogoUploaded = Schema.Struct({ dry_run: Schema.Boolean, logo: Logo, cleaned: Schema.Array(Schema.String) })

export const uploadCompanyLogo = Operation.make({
  id: "uploadCompanyLogo", method: "POST", path: "/v1/company/profile/logo", area,
  summary: "Set the logo: a PNG (at most 1 MB, 4096 px a side, not interlaced) or an SVG (at most 256 KB) rebuilt from an allow-list.",
  description: "The type is read from the bytes. An SVG with anything that could run or fetch (scripts, event handlers, external references, foreignObject, CSS url(), entities) is refused.",
  scope: "admin", mode: "K", bodyBytesMax: limits.logoBodyBytesMax,
  body: Schema.Struct({
    content_base64: Schema.String.check(Schema.isMinLength(4), Schema.isMaxLength(Math.ceil((1024 * 1024 + 64 * 1024) / 3) * 4)).annotate({
      description: "The PNG or SVG file's bytes, base64."
    }),
    file_name: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)).annotate({
      description: "The file's name, kept for people; the type is read from the bytes."
    })),
    dry_run: DryRun
  }),
  success: LogoUploaded,
  otherResponses: { 200: LogoUploaded },
  errors: ["logo_refused", "unsupported_media_type", "payload_too_large"]
})

export const LogoFile = Schema.Struct({
  file_name: Schema.String,
  media_type: Schema.String,
  size_bytes: Schema.Int,
  content_base64: Schema.String
}).annotate({ identifier: "ProfileLogoFile" })

export const getCompanyLogo = Operation.make({
  id: "getCompanyLogo", method: "GET", path: "/v1/company/profile/logo", area,
  summary: "The logo file as it was set (format=base64: in JSON).", scope: "read", mode: "R",
  query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["base64"])) }),
  success: LogoFile, errors: ["not_found"],
  files: File.files({ formats: { logo: [File.mediaTypes.png, File.mediaTypes.svg] }, default: "logo" })
})

export const removeCompanyLogo = Operation.make({
  id: "removeCompanyLogo", method: "POST", path: "/v1/company/profile/logo/remove", area,
  summary: "Remove the logo.", scope: "admin", mode: "-", body: Empty, success: Profile
})

export const PreviewFile = Schema.Struct({
  kind: Schema.Literals(["invoice", "estimate", "sales_receipt", "credit_memo"]),
  filename: Schema.String,
  content_type: Schema.Literal("application/pdf"),
  size_bytes: Schema.Int,
  content_base64: Schema.String
}).annotate({ identifier: "ProfilePreview" })

export const previewCompanyProfile = Operation.make({
  id: "previewCompanyProfile", method: "GET", path: "/v1/company/profile/preview", area,
  summary: "A sample document drawn with the profile, as a PDF. Nothing is posted or sent.",
  scope: "read", mode: "R",
  query: Schema.Struct({
    kind: Schema.optionalKey(Schema.Literals(["invoice", "estimate", "sales_receipt", "credit_memo"]).annotate({
      description: "Which document to preview with the profile (default invoice)."
    })),
    format: Schema.optionalKey(Schema.Literals(["pdf", "base64"]))
  }),
  success: PreviewFile,
  files: File.pdfDocument
})

export const operations = [
  getCompanyProfile, updateCompanyProfile, uploadCompanyLogo, getCompanyLogo, removeCompanyLogo, previewCompanyProfile
] as const
