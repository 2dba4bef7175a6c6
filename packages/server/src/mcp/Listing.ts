import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { ApiError } from "@ledger/api"
import * as Discovery from "./Discovery.ts"
import * as Hints from "./Hints.ts"
import * as Sessions from "./Sessions.ts"
import { type ToolEntry, toolsOf, withoutOutputSchema } from "./Tools.ts"
import * as Toolsets from "./Toolsets.ts"

/**
 * Which tools one request lists, and the discovery tools' answers (ADR 2200): the toolsets of the
 * caller's session when it has one, else those the address names (`default` when none), always
 * filtered to what the caller may use.
 */

const text = (value: unknown) => JSON.stringify(value)

/** The next step's line, for a model (a second text block) and a program (`_meta`). */
export const withHint = (hint: string | null) => ({
  blocks: hint === null ? [] : [{ type: "text" as const, text: `Next: ${hint}` }],
  meta: hint === null ? {} : { "dev.ledger/hint": hint }
})

/** A tool result whose structured content is `body`: an error body, with its next step, when `isError`. */
export const result = (body: Record<string, unknown>, isError = false) => {
  const hint = withHint(isError ? Hints.forAnswer(400, body) : null)
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: "text" as const, text: text(body) }, ...hint.blocks],
    structuredContent: body,
    ...(isError && Object.keys(hint.meta).length > 0 ? { _meta: hint.meta } : {})
  }
}

export const refusedWith = (body: { readonly error: unknown }) => result(body as Record<string, unknown>, true)

type Result = ReturnType<typeof result>

export interface Context {
  readonly fromAddress: { readonly names: ReadonlySet<string> }
  readonly sessions: Sessions.Store | undefined
  readonly sessionId: string | null | undefined
  readonly now: number
  /** Whether the client's list carries output schemas (`?output_schemas=`): describe_tool follows it unless asked. */
  readonly outputSchemas?: boolean | undefined
}

interface View {
  readonly names: ReadonlySet<string>
  readonly session: Sessions.Session | null
  /** The session id is another principal's. */
  readonly foreign: boolean
}

type Caller = Toolsets.Caller | null

export interface Listing {
  readonly list: (caller: Caller) => ReadonlyArray<Tool>
  readonly listToolsets: (caller: Caller) => Result
  readonly describeTool: (caller: Caller, args: Record<string, unknown>) => Result
  readonly toggle: (caller: Caller, enabled: boolean, args: Record<string, unknown>, notify: () => Promise<void>) => Promise<Result>
}

/** At most this many kinds of caller keep their usable tools; past it the oldest is dropped. */
const usableCacheLimit = 256
const usableByKind = new Map<string, ReadonlyArray<ToolEntry>>()

/**
 * Catalog tools the caller may use. `usableBy` reads only the principal type, firm flag and scopes,
 * so the filtered catalog is kept by those (issue 43: not re-filtered on every list), bounded.
 */
const usable = (caller: Caller): ReadonlyArray<ToolEntry> => {
  const key = caller === null ? "" : `${caller.principalType}|${caller.firm === true}|${[...caller.scopes].sort().join(" ")}`
  const kept = usableByKind.get(key)
  if (kept !== undefined) return kept
  const entries = Array.from(toolsOf().values()).filter((entry) => Toolsets.usableBy(entry.operation, caller))
  if (usableByKind.size >= usableCacheLimit) usableByKind.delete(usableByKind.keys().next().value!)
  usableByKind.set(key, entries)
  return entries
}

/** The names of the catalog tools `names` list for the caller. */
const listedNames = (caller: Caller, names: ReadonlySet<string>): ReadonlySet<string> => {
  const ids = Toolsets.idsOf(names, caller)
  return new Set(usable(caller).filter((entry) => ids === null || ids.has(entry.operation.id)).map((entry) => entry.tool.name))
}

/** The names of the caller's tools in one toolset (`all` included). */
const toolsetTools = (caller: Caller, toolset: string): Array<string> => {
  const ids = Toolsets.idsOf(new Set([toolset]), caller)
  return usable(caller).filter((entry) => ids === null || ids.has(entry.operation.id)).map((entry) => entry.tool.name)
}

const describeTool = (caller: Caller, listed: ReadonlySet<string>, args: Record<string, unknown>, outputSchemas: boolean): Result => {
  const wanted = typeof args.name === "string" ? args.name : ""
  if (Discovery.names.has(wanted)) {
    return result({ tool: Discovery.tools.find((tool) => tool.name === wanted)!, toolsets: [], listed: true })
  }
  const entry = toolsOf().get(wanted)
  if (entry === undefined || !Toolsets.usableBy(entry.operation, null)) {
    return refusedWith(ApiError.fail("not_found", `No tool named ${wanted}. list_toolsets names every tool you may call.`).toBody())
  }
  if (!Toolsets.usableBy(entry.operation, caller)) {
    return refusedWith(ApiError.fail(
      "insufficient_scope",
      `${wanted} is not for this credential: it needs scope ${entry.operation.scope}${entry.operation.peopleOnly ? " and a person" : ""}` +
        `${entry.operation.credential === "firm" ? " and a firm's credential" : ""}. Ask a person who may, or for a credential that may.`,
      { required_scope: entry.operation.scope }
    ).toBody())
  }
  const toolsets = [...Toolsets.toolsets.entries()].filter(([, ids]) => ids.has(entry.operation.id)).map(([toolset]) => toolset)
  // An agent that only needs what to send asks without the output schema: about half a write's bytes.
  const withOutput = typeof args.output_schema === "boolean" ? args.output_schema : outputSchemas
  return result({ tool: withOutput ? entry.tool : withoutOutputSchema(entry.tool), toolsets, listed: listed.has(wanted) })
}

/** One line per toolset the caller has tools in: what it is for, its tools, whether they are listed now. */
const toolsetLines = (caller: Caller, names: ReadonlySet<string>) => {
  const listed = listedNames(caller, names)
  return ["default", ...[...Toolsets.toolsets.keys()].sort()].flatMap((toolset) => {
    const tools = toolsetTools(caller, toolset)
    return tools.length === 0 ? [] : [{
      name: toolset,
      description: Toolsets.describe(toolset),
      enabled: names.has("all") || tools.every((tool) => listed.has(tool)),
      tools
    }]
  })
}

export const make = (context: Context): Listing => {
  const { fromAddress, sessions, now } = context
  const sessionId = Sessions.isSessionId(context.sessionId) ? context.sessionId : null
  /** The session's toolsets for `caller`; a session of another principal is not this caller's, and not used. */
  const viewOf = (caller: Caller): View => {
    const session = sessionId === null ? undefined : sessions?.get(sessionId, now)
    if (session === undefined) return { names: fromAddress.names, session: null, foreign: false }
    if (session.identity !== null && session.identity !== (caller?.identity ?? null)) {
      return { names: fromAddress.names, session: null, foreign: true }
    }
    return { names: session.names, session, foreign: false }
  }
  /** Whether toggles change this client's list: it sends a session id that is not another principal's. */
  const holdsSession = (view: View) => sessionId !== null && sessions !== undefined && !view.foreign

  const list = (caller: Caller): ReadonlyArray<Tool> => {
    const view = viewOf(caller)
    // The first principal to list through a session owns it.
    if (view.session !== null && view.session.identity === null && sessionId !== null && caller?.identity !== undefined) {
      sessions?.put(sessionId, { ...view.session, identity: caller.identity }, now)
    }
    const listed = listedNames(caller, view.names)
    return [...Discovery.tools, ...usable(caller).filter((entry) => listed.has(entry.tool.name)).map((entry) => entry.tool)]
  }

  const listToolsets = (caller: Caller): Result => {
    const view = viewOf(caller)
    return result({ toolsets: toolsetLines(caller, view.names), session: holdsSession(view) })
  }

  const toggle = async (caller: Caller, enabled: boolean, args: Record<string, unknown>, notify: () => Promise<void>): Promise<Result> => {
    const toolset = typeof args.toolset === "string" ? args.toolset.trim().toLowerCase() : ""
    if (!Toolsets.known(toolset)) {
      return refusedWith(ApiError.fail("not_found", `No toolset named ${toolset}. list_toolsets names them.`).toBody())
    }
    const view = viewOf(caller)
    const listed = listedNames(caller, view.names)
    const tools = toolsetTools(caller, toolset)
    // A session id this process does not know (a restart, another replica, idle too long) is
    // taken up again from the address's toolsets; another principal's is not this caller's.
    if (sessionId === null || sessions === undefined || !holdsSession(view)) {
      return result({
        toolset,
        enabled: tools.every((tool) => listed.has(tool)),
        changed: false,
        session: false,
        tools,
        note: "This client keeps no MCP session (no Mcp-Session-Id), so its tool list cannot change: call these tools through " +
          "call_tool (describe_tool shows their input), or name the toolset in ?toolsets= on the MCP address."
      })
    }
    const names = new Set(view.names)
    if (enabled) names.add(toolset)
    else names.delete(toolset)
    sessions.put(sessionId, { names, identity: caller?.identity ?? view.session?.identity ?? null }, now)
    const after = listedNames(caller, names)
    const changed = after.size !== listed.size || [...after].some((tool) => !listed.has(tool))
    if (changed) await notify()
    return result({ toolset, enabled, changed, session: true, tools, ...(enabled ? {} : { note: "Still callable through call_tool." }) })
  }

  const describe = (caller: Caller, args: Record<string, unknown>) =>
    describeTool(caller, listedNames(caller, viewOf(caller).names), args, context.outputSchemas ?? true)
  return { list, listToolsets, describeTool: describe, toggle }
}
