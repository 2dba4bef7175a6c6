import { Schema } from "effect"
import { DateString, Id, Name, PageQuery, Page, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { AsOfQuery, EmailAddress, IdPath, TermsDays } from "./Shared.ts"

const area = "4.7 Sales and purchases"

export const ContactKind = Schema.Literals(["customer", "vendor"]).annotate({ description: "A customer (sales side) or a vendor (purchases side)." })
export type ContactKind = typeof ContactKind.Type

/** Nine digits, dashes allowed (EIN 12-3456789 or SSN 123-45-6789). Only the last four are kept. */
export const TaxId = Schema.String.check(
  Schema.isPattern(/^(?:\d-?){8}\d$/u)
).annotate({ description: "9 digits, dashes allowed. Write-only: only the last four digits are kept, never returned." })

export const Contact = Schema.Struct({
  id: Id,
  kind: ContactKind,
  name: Name,
  email: Schema.NullOr(Schema.String),
  terms_days: Schema.NullOr(Schema.Int),
  active: Schema.Boolean,
  is_1099: Schema.Boolean,
  has_tax_id: Schema.Boolean.annotate({ description: "Whether a tax id is on file; the id itself is never returned." }),
  as_of: DateString,
  open_balance_cents: Schema.Int.annotate({ description: "Open documents less unapplied credits, as of `as_of`." }),
  overdue_balance_cents: Schema.Int,
  unapplied_credit_cents: Schema.Int,
  created_at: Timestamp
}).annotate({ identifier: "Contact" })
export type Contact = typeof Contact.Type

export const createContact = Operation.make({
  id: "createContact",
  method: "POST",
  path: "/v1/contacts",
  area,
  summary: "Add a customer or vendor.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    kind: ContactKind,
    name: Name,
    email: Schema.optionalKey(EmailAddress),
    terms_days: Schema.optionalKey(TermsDays),
    is_1099: Schema.optionalKey(Schema.Boolean).annotate({ description: "Vendors only." }),
    tax_id: Schema.optionalKey(TaxId)
  }),
  success: Contact
})

export const listContacts = Operation.make({
  id: "listContacts",
  method: "GET",
  path: "/v1/contacts",
  area,
  summary: "Customers and vendors with their open and overdue balances.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    kind: Schema.optionalKey(ContactKind),
    include_inactive: Schema.optionalKey(Schema.Boolean),
    as_of: AsOfQuery,
    ...PageQuery
  }),
  success: Page(Contact)
})

export const ContactActivity = Schema.Struct({
  id: Id,
  type: Schema.String,
  number: Schema.NullOr(Schema.String),
  date: DateString,
  total_cents: Schema.Int,
  open_cents: Schema.Int,
  status: Schema.String
})

export const ContactDetail = Schema.Struct({
  ...Contact.fields,
  documents: Schema.Array(ContactActivity),
  payments: Schema.Array(ContactActivity)
}).annotate({ identifier: "ContactDetail" })

export const getContact = Operation.make({
  id: "getContact",
  method: "GET",
  path: "/v1/contacts/{id}",
  area,
  summary: "One contact with its documents and payments.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ as_of: AsOfQuery }),
  success: ContactDetail
})

export const updateContact = Operation.make({
  id: "updateContact",
  method: "POST",
  path: "/v1/contacts/{id}/update",
  area,
  summary: "Change a contact. A null tax_id forgets it.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    name: Schema.optionalKey(Name),
    email: Schema.optionalKey(Schema.NullOr(EmailAddress)),
    terms_days: Schema.optionalKey(Schema.NullOr(TermsDays)),
    active: Schema.optionalKey(Schema.Boolean.annotate({ description: "False deactivates the contact: it leaves lists and new documents; history stays." })),
    is_1099: Schema.optionalKey(Schema.Boolean.annotate({ description: "Vendors only: the vendor gets a 1099 for its payments." })),
    tax_id: Schema.optionalKey(Schema.NullOr(TaxId))
  }),
  success: Contact
})

export const operations = [createContact, listContacts, getContact, updateContact] as const
