import { Schema } from "effect"
import * as Limits from "./Limits.ts"

/** Every record id but a company's: a positive integer unique across the deployment. */
export const Id = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  description: "A record id: a positive integer, unique across the deployment."
})

/** Company ids are lower-case UUID strings (spec 2). */
export const CompanyId = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u)
).annotate({ description: "A company id: a lower-case UUID." })

const isCalendarDate = (value: string): boolean => {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * A calendar date `YYYY-MM-DD`. The description sits on the string itself: annotated after a
 * filter that has no JSON Schema, it would be lost from the JSON Schema (and the MCP tools).
 */
export const DateString = Schema.String.annotate({ description: "A date, YYYY-MM-DD." }).check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u),
  Schema.makeFilter((value: string) => isCalendarDate(value) || "Expected a calendar date YYYY-MM-DD")
)

/** An ISO 8601 timestamp, as the server writes them. */
export const Timestamp = Schema.String.annotate({ description: "An ISO 8601 timestamp (UTC)." })

export const Name = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.nameLengthMax)
).annotate({ description: `A name as people read it, 1 to ${Limits.nameLengthMax} characters.` })
export const Reason = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.reasonLengthMax)
).annotate({ description: "Why, for the audit log." })
export const Memo = Schema.String.check(Schema.isMaxLength(Limits.memoLengthMax)).annotate({
  description: `A free-text note kept with the record, at most ${Limits.memoLengthMax} characters.`
})

export const Cents = Schema.Int.check(
  Schema.isBetween({ minimum: -Limits.amountCentsMax, maximum: Limits.amountCentsMax })
).annotate({ description: "Integer cents (100 = one unit)." })
export const PositiveCents = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: Limits.amountCentsMax })
).annotate({ description: "Positive integer cents." })
export const NonNegativeCents = Schema.Int.check(
  Schema.isBetween({ minimum: 0, maximum: Limits.amountCentsMax })
).annotate({ description: "Non-negative integer cents." })

/** Query parameters every list takes (DECISIONS.md). */
export const PageQuery = {
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.pageSizeMax })).annotate({
    description: `How many records one page holds: 1 to ${Limits.pageSizeMax}, 100 when absent.`
  })),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({
    description: "Where the next page starts: the previous page's next_cursor, as it was (opaque)."
  }))
}

/** A page of a list (DECISIONS.md). */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String)
  })

export const DryRun = Schema.optionalKey(Schema.Boolean).annotate({
  description: "Preview only: validate and compute the result, write nothing."
})

/** An empty request body `{}`. */
export const Empty = Schema.Struct({})
