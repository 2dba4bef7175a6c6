/** The W-9 page's fields and the body it posts to `POST /v1/w9/{token}` (screens/W9.tsx). */

export const fields = ["legal_name", "business_name", "tax_class", "tax_class_other", "exempt_payee_code", "fatca_code", "address1", "address2", "city", "state", "zip", "tin_type", "tin"] as const
export type Field = typeof fields[number]
export type Values = Record<Field, string>

export const empty: Values = {
  legal_name: "", business_name: "", tax_class: "individual", tax_class_other: "", exempt_payee_code: "", fatca_code: "",
  address1: "", address2: "", city: "", state: "", zip: "", tin_type: "SSN", tin: ""
}

/** The request body: optional fields left blank are left out, the state upper-cased. */
export const bodyOf = (values: Values) => {
  const body: Record<string, unknown> = { certify: true }
  for (const field of fields) {
    const value = field === "state" ? values[field].trim().toUpperCase() : values[field].trim()
    if (value === "") continue
    if (field === "tax_class_other" && values.tax_class !== "other") continue
    body[field] = value
  }
  return body
}

