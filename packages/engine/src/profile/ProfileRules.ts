/**
 * Pure rules of the company profile (spec 4.5): cleared fields, the website's scheme, the EIN and
 * who sees it whole, the brand colour's contrast on white (WCAG 2 relative luminance), and the
 * 12-line limit of the longer texts.
 */

export type Problem = { readonly field: string; readonly message: string }

/** Trimmed text, or null for null, an empty or a blank string (the spec: null or "" clears). */
export const cleared = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === "" ? null : value.trim()

/** `example.com` -> `https://example.com`; only http and https are web addresses. */
export const website = (value: string): string | Problem => {
  const withScheme = /^[a-z][a-z0-9+.-]*:/iu.test(value) ? value : `https://${value}`
  try {
    const url = new URL(withScheme)
    if (url.protocol !== "https:" && url.protocol !== "http:") return { field: "website", message: "A website is an http or https address." }
    if (!url.hostname.includes(".")) return { field: "website", message: "A website needs a domain name." }
    return withScheme
  } catch {
    return { field: "website", message: "Not a web address." }
  }
}

/** An EIN: 9 digits, written with or without its hyphen (12-3456789). */
export const ein = (value: string): string | Problem => {
  const digits = value.replace(/[\s-]/gu, "")
  return /^\d{9}$/u.test(digits) ? digits : { field: "ein", message: "An EIN is 9 digits (12-3456789)." }
}

/** In full for administrators, else only its last four digits. */
export const showEin = (digits: string | null, admin: boolean): string | null =>
  digits === null ? null : admin ? `${digits.slice(0, 2)}-${digits.slice(2)}` : `XX-XXX${digits.slice(5)}`

/** The WCAG 2 relative luminance of an sRGB colour `#rrggbb`. */
export const luminance = (hex: string): number => {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** Contrast of a colour with white: (1 + 0.05) / (L + 0.05), from 1 (white) to 21 (black). */
export const contrastOnWhite = (hex: string): number => 1.05 / (luminance(hex) + 0.05)

export const minimumContrast = 3

/** `#abc` or `#aabbcc` (any case), lower-cased to `#aabbcc`, with contrast at least 3:1 on white. */
export const brandColor = (value: string): string | Problem => {
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/iu.exec(value)
  const long = /^#?([0-9a-f]{6})$/iu.exec(value)
  const hex = short !== null ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : long !== null ? `#${long[1]}` : null
  if (hex === null) return { field: "brand_color", message: "A colour is hex: #1a5fb4." }
  const normalized = hex.toLowerCase()
  const ratio = contrastOnWhite(normalized)
  return ratio >= minimumContrast
    ? normalized
    : { field: "brand_color", message: `Contrast on white is ${ratio.toFixed(2)}:1; at least ${minimumContrast}:1 is needed to read it.` }
}

export const lineCount = (text: string): number => text.split(/\r\n|\r|\n/u).length

export const country = (value: string): string | Problem =>
  /^[a-z]{2}$/iu.test(value) ? value.toUpperCase() : { field: "country", message: "A country is its two-letter code (US)." }

export const email = (value: string): string | Problem =>
  /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/u.test(value) ? value : { field: "email", message: "Not an email address." }

export const isProblem = (value: unknown): value is Problem => typeof value === "object" && value !== null && "field" in value
