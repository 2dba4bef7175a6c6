import type { TaxForms } from "@ledger/api"
import { Csv } from "../reports/index.ts"
import * as AmountRules from "./AmountRules.ts"
import type { Amounts } from "./fire/Fields.ts"
import * as FireFile from "./fire/FireFile.ts"
import * as TinRules from "./TinRules.ts"

/**
 * A filing's file (pure): a Publication 1220 FIRE file (one payer group per form and correction
 * step) or, for `gov_csv`, the CSV of the IRS's portal upload (ADR 1307). Written twice from the
 * same input: with full TINs (sealed at rest, sent on approval) and with masked TINs (the preview
 * a person approves by its SHA-256).
 */

type Box = TaxForms.Shared.Box

export interface Person {
  readonly name: string
  readonly name2: string | null
  readonly address: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly tinType: string
  readonly tin: string
  readonly individual: boolean
}

export interface Payee {
  readonly contactId: number
  readonly form: "1099-NEC" | "1099-MISC"
  readonly corrected: "" | "G" | "C"
  readonly person: Person
  readonly boxes: ReadonlyMap<Box, number>
}

export interface Input {
  readonly year: number
  readonly test: boolean
  readonly payer: Person & { readonly phone: string; readonly email: string | null }
  readonly payees: ReadonlyArray<Payee>
}

const tinOf = (tin: string, masked: boolean) => masked ? `*****${tin.slice(-4)}` : tin

const amountsOf = (payee: Payee): Amounts => {
  const amounts: Partial<Record<string, number>> = {}
  for (const [box, cents] of payee.boxes) if (AmountRules.formOf(box) === payee.form) amounts[AmountRules.amountCode[box]] = (amounts[AmountRules.amountCode[box]] ?? 0) + cents
  return amounts as Amounts
}

export const fire = (input: Input, masked: boolean): string => {
  const p = input.payer
  const groups = new Map<string, Array<Payee>>()
  for (const payee of input.payees) groups.set(`${payee.form}:${payee.corrected}`, [...(groups.get(`${payee.form}:${payee.corrected}`) ?? []), payee])
  const order = [...groups.keys()].sort()
  return FireFile.build({
    paymentYear: input.year,
    transmitter: {
      priorYearData: false,
      tin: tinOf(p.tin, masked),
      // The transmitter control code the provider holds; the provider stamps its own (ADR 1307).
      controlCode: "00000",
      test: input.test,
      foreignEntity: false,
      name: TinRules.fireText(p.name),
      companyName: TinRules.fireText(p.name),
      address: TinRules.fireText(p.address),
      city: TinRules.fireText(p.city),
      state: p.state,
      zip: p.zip,
      contactName: TinRules.fireText(p.name),
      contactPhone: p.phone,
      contactEmail: p.email ?? "",
      vendorIndicator: "I"
    },
    payers: order.map((key) => ({
      payer: {
        combinedFederalState: false,
        tin: tinOf(p.tin, masked),
        nameControl: TinRules.nameControl(p.name, p.individual),
        lastFiling: false,
        typeOfReturn: key.startsWith("1099-NEC") ? "NE" : "A",
        foreignEntity: false,
        name: TinRules.fireText(p.name),
        name2: TinRules.fireText(p.name2),
        transferAgent: false,
        address: TinRules.fireText(p.address),
        city: TinRules.fireText(p.city),
        state: p.state,
        zip: p.zip,
        phone: p.phone
      },
      payees: groups.get(key)!.map((payee) => ({
        corrected: payee.corrected,
        nameControl: TinRules.nameControl(payee.person.name, payee.person.individual),
        typeOfTin: TinRules.typeOfTin(payee.person.tinType),
        tin: tinOf(payee.person.tin, masked),
        accountNumber: String(payee.contactId),
        amounts: amountsOf(payee),
        foreignCountry: false,
        name: TinRules.fireText(payee.person.name),
        name2: TinRules.fireText(payee.person.name2),
        address: TinRules.fireText(payee.person.address),
        city: TinRules.fireText(payee.person.city),
        state: payee.person.state,
        zip: payee.person.zip,
        secondTinNotice: false,
        directSales: false,
        fatca: false,
        stateTaxWithheld: 0,
        localTaxWithheld: 0,
        combinedFederalStateCode: 0
      }))
    }))
  })
}

export const csv = (input: Input, masked: boolean): string =>
  Csv.render(
    ["Tax Year", "Form", "Corrected", "Payer TIN", "Recipient TIN Type", "Recipient TIN", "Recipient Name", "Recipient Name 2",
      "Address", "City", "State", "ZIP", "Account Number", ...AmountRules.boxes.map((box) => `Box ${box}`)],
    input.payees.map((payee) => [
      input.year,
      payee.form,
      payee.corrected === "" ? "" : payee.corrected === "G" ? "Corrected" : "Corrected (new name or TIN)",
      tinOf(input.payer.tin, masked),
      payee.person.tinType,
      tinOf(payee.person.tin, masked),
      payee.person.name,
      payee.person.name2,
      payee.person.address,
      payee.person.city,
      payee.person.state,
      payee.person.zip,
      String(payee.contactId),
      ...AmountRules.boxes.map((box) => AmountRules.formOf(box) === payee.form ? Csv.cents(payee.boxes.get(box) ?? 0) : null)
    ])
  )

export const render = (format: "fire" | "csv", input: Input, masked: boolean): string => format === "fire" ? fire(input, masked) : csv(input, masked)
