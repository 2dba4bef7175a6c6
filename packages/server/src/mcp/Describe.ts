import type { Operation } from "@ledger/api"

/**
 * Descriptions for a tool's input properties that the contract states without words (issue 20
 * item 5). Descriptions belong on the contract's schemas (packages/api: `Common.ts` for shared
 * fields, each area for its own); this only fills in what the contract says by its structure:
 *
 * - a nullable or alternative field whose branches carry a description (`NullOr(Id)`) takes it;
 * - a `format` of an operation that answers files names the files and how MCP carries them;
 * - the conventions of spec 4.0 and DECISIONS.md, the same for every operation: `dry_run` previews,
 *   `limit` and `cursor` page a list (up to the schema's own maximum), `include_*` flags widen a
 *   list, `*_cents` is integer cents, `*_account` is an account code, and a list's enumerated,
 *   boolean or record-id query parameter is a filter.
 *
 * A property none of these fits keeps no description: test/foundation/mcp-schemas.test.ts lists
 * it, and the fix is a description in the contract, not a made-up one here.
 */

type Json = Record<string, unknown>

/** As `Common.DryRun` says it, for the areas that declare their own flag. */
const dryRun = "Preview only: validate and compute the result, write nothing."
const cursor = "Where the next page starts: the previous page's next_cursor, as it was (opaque)."

const words = (name: string) => name.replace(/_/g, " ")

const branchDescription = (json: Json): string | null => {
  const branches = (Array.isArray(json.anyOf) ? json.anyOf : Array.isArray(json.oneOf) ? json.oneOf : []) as Array<Json>
  const described = branches.filter((branch) => typeof branch.description === "string")
  if (described.length !== 1) return null
  const nullable = branches.some((branch) => branch.type === "null")
  return `${described[0]!.description as string}${nullable ? " Null clears it." : ""}`
}

const typeOf = (json: Json): string | null => {
  if (typeof json.type === "string") return json.type
  const branches = (Array.isArray(json.anyOf) ? json.anyOf : []) as Array<Json>
  const types = branches.map((branch) => branch.type).filter((type) => typeof type === "string" && type !== "null")
  return types.length === 1 ? types[0] as string : null
}

/** The description a property lacking one takes, or null when the contract says nothing. */
export const fallback = (
  operation: Operation.Any,
  name: string,
  json: Json,
  where: "path" | "query" | "body"
): string | null => {
  const fromBranch = branchDescription(json)
  if (fromBranch !== null) return fromBranch
  const type = typeOf(json)
  if (name === "format" && operation.files !== undefined) {
    const files = Object.keys(operation.files.formats).join(", ")
    return `The answer's format: ${files} answers the file (over MCP, in a JSON envelope with filename, ` +
      `content_type and content or content_base64)${operation.files.default === undefined ? "; absent: JSON data" : `; absent: ${operation.files.default}`}.`
  }
  if (name === "dry_run" && type === "boolean") return dryRun
  if (name === "cursor" && type === "string" && where === "query") return cursor
  if (name === "limit" && type === "integer" && where === "query") {
    return `How many records one page holds: 1 to ${typeof json.maximum === "number" ? json.maximum : "the list's maximum"}.`
  }
  const include = /^include_(.+)$/.exec(name)
  if (include !== null && type === "boolean") return `Also list ${words(include[1]!)} records, which are left out by default.`
  const cents = /^(.+)_cents$/.exec(name)
  if (cents !== null && type === "integer") return `The ${words(cents[1]!)} in integer cents (100 = one unit).`
  if (/(^|_)account$/.test(name) && type === "string") {
    return `${name === "account" ? "The account" : `The ${words(name)}`}: an account code of the chart of accounts.`
  }
  // A list's enumerated, boolean or record-id parameter filters it (DECISIONS.md: lists take
  // `limit`, `cursor` and the spec's filters); ranges (`from`, `to`) are not covered by this.
  const queryFields = (operation.query as unknown as { fields?: Record<string, unknown> } | undefined)?.fields
  const isList = operation.method === "GET" && queryFields !== undefined && "limit" in queryFields
  const filterLike = Array.isArray(json.enum) || type === "boolean" || (/_id$/.test(name) && type === "integer")
  if (where === "query" && isList && filterLike) return `Only records whose ${words(name)} is this value.`
  return null
}
