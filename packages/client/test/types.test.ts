import { Effect } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import {
  type AnyClientError,
  type ApiErrorOf,
  createClient,
  type Input,
  isClientError,
  isPendingApproval,
  type LedgerApiError,
  type LedgerClient,
  type LedgerNetworkError,
  type OperationOf,
  type Output,
  type PendingApproval
} from "@ledger/client"

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
