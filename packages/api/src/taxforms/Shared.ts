import { Schema } from "effect"
import { Id } from "../Common.ts"

export const area = "4.7 Information-return (1099) forms"

export const Box = Schema.Literals(["NEC1", "MISC1", "MISC2", "MISC3", "MISC6", "MISC10"]).annotate({
  description: "NEC1: 1099-NEC box 1 nonemployee compensation; MISC1 rents; MISC2 royalties; MISC3 other income; " +
    "MISC6 medical and health care payments; MISC10 gross proceeds paid to an attorney."
})
export type Box = typeof Box.Type

export const TinType = Schema.Literals(["SSN", "EIN", "ITIN", "ATIN"]).annotate({ description: "The kind of taxpayer identification number." })
export const PayerTinType = Schema.Literals(["EIN", "SSN", "ITIN"]).annotate({ description: "The kind of the payer's taxpayer identification number." })

/** Digits only or with the usual dashes (`12-3456789`, `123-45-6789`); stored as 9 digits. */
export const Tin = Schema.String.check(Schema.isPattern(/^(\d{9}|\d{2}-\d{7}|\d{3}-\d{2}-\d{4})$/u)).annotate({
  description: "A taxpayer identification number: 9 digits, dashes allowed. Write-only."
})

export const MaskedTin = Schema.NullOr(Schema.String).annotate({ description: "`***-**-1234` or `**-***1234`; never the full number." })

const text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))
export const Line40 = text(40).annotate({ description: "One line of a form, at most 40 characters (the IRS record's width)." })
export const State = Schema.String.check(Schema.isPattern(/^[A-Z]{2}$/u)).annotate({ description: "The US state, two capital letters (NY)." })
export const Zip = Schema.String.check(Schema.isPattern(/^\d{5}(-?\d{4})?$/u)).annotate({ description: "The ZIP code: 5 digits, or ZIP+4." })
export const Phone = Schema.String.check(Schema.isPattern(/^[0-9()+. -]{7,20}$/u)).annotate({ description: "The payer's phone number, printed on the forms." })
export const Year = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 2100 })).annotate({ description: "The tax year (a calendar year)." })

export const VendorPath = Schema.Struct({ id: Id })
