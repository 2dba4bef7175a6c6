/**
 * Taxpayer identification numbers (pure): stored as 9 digits, shown masked, and the name control
 * Publication 1220 asks for (the first four letters or digits the IRS would take from the name).
 */

export const digits = (tin: string): string => tin.replace(/\D/g, "")

export const lastFour = (tin: string): string => digits(tin).slice(-4)

/** `***-**-1234` for SSN, ITIN and ATIN; `**-***1234` for an EIN. Never more than the last four. */
export const mask = (tinType: string, last4: string | null): string | null =>
  last4 === null ? null : tinType === "EIN" ? `**-***${last4}` : `***-**-${last4}`

/** Publication 1220's type of TIN: 1 an EIN, 2 an SSN, ITIN or ATIN. */
export const typeOfTin = (tinType: string): "1" | "2" => tinType === "EIN" ? "1" : "2"

/**
 * The name control: for a person, the first four characters of the last name; for a business,
 * of its name without a leading "The". Letters, digits, hyphens and ampersands only, upper case.
 */
export const nameControl = (name: string, individual: boolean): string => {
  const words = name.toUpperCase().replace(/[^A-Z0-9&\- ]/g, "").split(/\s+/).filter((word) => word !== "")
  const source = individual ? (words.at(-1) ?? "") : (words[0] === "THE" && words.length > 1 ? words.slice(1) : words).join("")
  return source.replace(/\s/g, "").slice(0, 4)
}

/** A value for a FIRE field: upper case ASCII, as the IRS prefers names and addresses. */
export const fireText = (value: string | null | undefined): string =>
  (value ?? "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toUpperCase().replace(/[^\x20-\x7E]/g, " ").trim()
