import { Effect } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import {
  type AnyClientError,
  type ApiErrorOf,
  createClient,
  type DryRunResult,
  type Input,
  isClientError,
  isPendingApproval,
  type LedgerApiError,
  type LedgerNetworkError,
  type OperationOf,
  type Output,
  type PendingApproval
} from "@ledger/client"
import type { LedgerClient } from "@ledger/client/effect"

/**
 * Type-level tests: `tsc -p tsconfig.json` (run before every commit and in CI) fails when one of
 * these stops holding; the runtime assertions below keep vitest honest about the same values.
 */

describe("errors narrow by type", () => {
  it("narrows the union on `type`", () => {
    const handle = (error: AnyClientError) => {
      if (error.type === "not_found") {
        expectTypeOf(error).toEqualTypeOf<ApiErrorOf<"not_found">>()
        expectTypeOf(error.status).toEqualTypeOf<number>()
        return "missing"
      }
      if (error.type === "network_error") {
        expectTypeOf(error).toEqualTypeOf<LedgerNetworkError>()
        expectTypeOf(error.attempts).toEqualTypeOf<number>()
        return "offline"
      }
      if (error.type === "rate_limited") {
        expectTypeOf(error).toEqualTypeOf<ApiErrorOf<"rate_limited">>()
        return "later"
      }
      // @ts-expect-error: "not_a_type" is no error type; comparing with it is a type error
      if (error.type === "not_a_type") return "never"
      return error.type
    }
    expect(typeof handle).toBe("function")
  })

  it("isClientError narrows unknown rejections of the Promise client", () => {
    const rejection: unknown = undefined
    if (isClientError(rejection, "idempotency_conflict")) {
      expectTypeOf(rejection).toEqualTypeOf<ApiErrorOf<"idempotency_conflict">>()
      expectTypeOf(rejection).toExtend<LedgerApiError>()
    }
    // @ts-expect-error: the second argument is a known error type
    isClientError(rejection, "no_such_type")
    expect(isClientError(rejection)).toBe(false)
  })

  it("the Effect client's failures are the union", () => {
    type Failure<T> = T extends Effect.Effect<unknown, infer E, unknown> ? E : never
    expectTypeOf<Failure<ReturnType<LedgerClient["Service"]["getMe"]>>>().toEqualTypeOf<AnyClientError>()
  })
})

describe("methods are typed from the catalog's schemas", () => {
  it("takes the flat input and returns the success body", () => {
    expectTypeOf<Input<OperationOf<"createUser">>>().toEqualTypeOf<{
      readonly name: string
      readonly role: "owner" | "cpa" | "accountant" | "staff"
      readonly email?: string
    }>()
    expectTypeOf<Input<OperationOf<"getKey">>>().toEqualTypeOf<{ readonly id: number }>()
    expectTypeOf<Output<OperationOf<"getMe">>["company"]["company_id"]>().toEqualTypeOf<string>()

    const client = createClient({ baseUrl: "http://ledger.invalid" })
    const call = () => client.createUser({ name: "A", role: "staff" })
    expectTypeOf(call).returns.resolves.toHaveProperty("created_at")
    // @ts-expect-error: role must be one of the user roles
    const wrongRole = () => client.createUser({ name: "A", role: "boss" })
    // @ts-expect-error: unknown fields are refused at compile time (and by the server at run time)
    const extraField = () => client.createUser({ name: "A", role: "staff", nickname: "a" })
    // @ts-expect-error: a required path parameter is missing
    const missingPath = () => client.getKey({})
    // Operations whose input is all optional may be called without one.
    const noInput = () => client.getMe()
    expect([call, wrongRole, extraField, missingPath, noInput].every((f) => typeof f === "function")).toBe(true)
  })

  it("an operation that takes dry_run may answer with a preview or a pending approval", () => {
    type Result = Output<OperationOf<"proposeJournalEntry">>
    expectTypeOf<PendingApproval>().toExtend<Result>()
    const result = {} as Result
    if (isPendingApproval(result)) expectTypeOf(result.proposal.id).toEqualTypeOf<number>()
    expect(isPendingApproval({ status: "pending_approval", proposal: {} })).toBe(true)
  })
})

describe("a call's answer follows its own arguments (issue 20 item 6)", () => {
  const client = createClient({ baseUrl: "http://ledger.invalid" })
  const invoice = { contact_id: 1, doc_date: "2026-01-31", lines: [{ account: "4000", amount_cents: 100 }] } as const

  it("without dry_run: the record or the proposal queued for approval, never the preview", () => {
    const posted = () => client.createInvoice(invoice)
    type Posted = Awaited<ReturnType<typeof posted>>
    expectTypeOf<Posted>().toEqualTypeOf<OperationOf<"createInvoice">["output"] | PendingApproval>()
    expectTypeOf<Extract<Posted, DryRunResult | { readonly dry_run: true }>>().toBeNever()
    const explicit = () => client.createInvoice({ ...invoice, dry_run: false })
    expectTypeOf<Awaited<ReturnType<typeof explicit>>>().toEqualTypeOf<Posted>()
    // Narrowing the proposal away leaves the record, with its fields.
    const use = async () => {
      const result = await client.createInvoice(invoice)
      if (isPendingApproval(result)) return result.proposal.id
      expectTypeOf(result).toEqualTypeOf<OperationOf<"createInvoice">["output"]>()
      return result.number
    }
    expect([posted, explicit, use].every((f) => typeof f === "function")).toBe(true)
  })

  it("with dry_run: true: the preview alone", () => {
    const preview = () => client.createInvoice({ ...invoice, dry_run: true })
    type Preview = Awaited<ReturnType<typeof preview>>
    expectTypeOf<Preview>().toEqualTypeOf<OperationOf<"createInvoice">["preview"]>()
    expectTypeOf<Preview["dry_run"]>().toEqualTypeOf<true>()
    expectTypeOf<Extract<Preview, PendingApproval>>().toBeNever()
    expect(typeof preview).toBe("function")
  })

  it("a dry_run known only at run time may be either; the Effect client narrows the same way", () => {
    const flag = Math.random() > 2
    const either = () => client.createInvoice({ ...invoice, dry_run: flag })
    expectTypeOf<Awaited<ReturnType<typeof either>>>().toEqualTypeOf<Output<OperationOf<"createInvoice">>>()
    type Success<T> = T extends Effect.Effect<infer A, unknown, unknown> ? A : never
    const effect = {} as LedgerClient["Service"]
    const viaEffect = () => effect.createInvoice({ ...invoice, dry_run: true })
    expectTypeOf<Success<ReturnType<typeof viaEffect>>>().toEqualTypeOf<OperationOf<"createInvoice">["preview"]>()
    // An operation without dry_run answers its record alone.
    const user = () => client.createUser({ name: "A", role: "staff" })
    expectTypeOf<Awaited<ReturnType<typeof user>>>().toEqualTypeOf<OperationOf<"createUser">["output"]>()
    // @ts-expect-error: dry_run is no field of an operation that does not take it
    const noDryRun = () => client.createUser({ name: "A", role: "staff", dry_run: true })
    expect([either, viaEffect, user, noDryRun].every((f) => typeof f === "function")).toBe(true)
  })
})
