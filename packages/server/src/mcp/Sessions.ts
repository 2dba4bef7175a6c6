/**
 * The toolsets each MCP session has turned on (issue 40, ADR 2200). `/mcp` stays stateless in
 * everything that matters: every call is authenticated and authorized on its own, and the books
 * are in the database. What a session remembers is only which tools to list, so it lives in the
 * serving process, bounded, and losing it (a restart, another replica, an idle session expired)
 * costs the agent one `enable_toolset` again: the tools themselves stay callable by name and
 * through `call_tool` whatever the list says.
 */

export interface Session {
  /** The toolsets listed: area names, `books`, `default`, `all`. */
  readonly names: ReadonlySet<string>
  /** The principal the session belongs to (Toolsets.Caller.identity), null until its first list or toggle. */
  readonly identity: string | null
}

/** At most this many sessions per process: the oldest-used is forgotten first. */
export const sessionsMax = 10_000

/** A session not used for this long is forgotten (8 hours: a working day's agent run). */
export const idleMillis = 8 * 60 * 60 * 1000

/** How a session id looks: 32 random bytes in base64url, visible ASCII as MCP asks. */
const idPattern = /^[A-Za-z0-9_-]{43}$/

export const isSessionId = (value: string | null | undefined): value is string => typeof value === "string" && idPattern.test(value)

export interface Store {
  /** A new session's id, holding `names`. */
  readonly open: (names: ReadonlySet<string>, now: number) => string
  /** The session under `id`, if it is known and not idle too long. */
  readonly get: (id: string, now: number) => Session | undefined
  /** Keeps `session` under `id` (a session this process had forgotten is taken up again). */
  readonly put: (id: string, session: Session, now: number) => void
}

const newId = (): string => Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32))).toString("base64url")

/** One process's sessions, in a Map kept in order of last use so the least recently used goes first. */
export const make = (): Store => {
  const sessions = new Map<string, { session: Session; seenAt: number }>()
  const keep = (id: string, session: Session, now: number) => {
    sessions.delete(id)
    sessions.set(id, { session, seenAt: now })
    while (sessions.size > sessionsMax) {
      const oldest = sessions.keys().next().value
      if (oldest === undefined) break
      sessions.delete(oldest)
    }
  }
  return {
    open: (names, now) => {
      const id = newId()
      keep(id, { names, identity: null }, now)
      return id
    },
    get: (id, now) => {
      const held = sessions.get(id)
      if (held === undefined) return undefined
      if (now - held.seenAt > idleMillis) {
        sessions.delete(id)
        return undefined
      }
      keep(id, held.session, now)
      return held.session
    },
    put: (id, session, now) => {
      if (isSessionId(id)) keep(id, session, now)
    }
  }
}
