/**
 * A V8 CPU profile (`.cpuprofile`, what `node --cpu-prof` and the inspector's Profiler write) summed
 * by layer of the request path. A function's layer is read from its source file's path; a
 * function of a library that belongs to no layer by itself (Effect's Schema, JSON, Node's streams)
 * counts in the layer of the nearest caller that does, so Schema decoding a request counts as
 * decoding and Schema encoding an answer as encoding.
 */

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}

interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}

export interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/**
 * The layers, first match wins, by a piece of the source file's path. Order matters: the pipeline's
 * own steps come before the rest of the engine, the SQL driver before Effect's runtime.
 */
const rules: ReadonlyArray<readonly [layer: string, pieces: ReadonlyArray<string>]> = [
  ["profiler", ["node:inspector"]],
  ["logging", ["http/Observability.ts", "effect/dist/Logger", "internal/console/", "internal/util/inspect", "internal/util/colors"]],
  ["authentication", ["pipeline/Authenticate.ts", "pipeline/authenticate/", "batching/CredentialMemory.ts", "pipeline/RateLimiter.ts"]],
  ["idempotency", ["pipeline/Idempotency.ts"]],
  ["audit", ["pipeline/Audit.ts", "pipeline/Outbox.ts"]],
  ["stored answer", ["pipeline/StoredAnswer.ts", "pipeline/SealedResult.ts", "pipeline/DeflateEncoder.ts"]],
  ["decoding", ["pipeline/RequestDecoding.ts", "server/src/http/JsonBody.ts", "mcp/JsonRpcChecks.ts"]],
  ["encoding", ["kernel/Row.ts", "kernel/formats/", "http/HttpBody.js"]],
  ["pipeline", ["engine/src/pipeline/"]],
  ["MCP", ["server/src/mcp/", "@modelcontextprotocol"]],
  ["HTTP platform", ["server/src/http/", "node:_http", "node:http", "unstable/http/", "platform-node", "HttpServer", "HttpRouter"]],
  ["SQL driver", ["/pg/", "/pg-protocol/", "/pg-pool/", "/postgres/", "sql-pg", "unstable/sql/", "@electric-sql/pglite", "storage/pglite/", "store/Pg"]],
  ["handler", ["engine/src/"]],
  ["server", ["server/src/"]],
  ["Effect runtime", ["effect/dist/internal/", "effect/src/internal/", "Fiber", "Scheduler"]]
]

const ownLayer = (frame: CallFrame): string | null => {
  for (const [layer, pieces] of rules) {
    if (pieces.some((piece) => frame.url.includes(piece))) return layer
  }
  if (frame.functionName === "consoleCall") return "logging"
  if (frame.functionName === "(garbage collector)") return "garbage collection"
  if (frame.functionName === "(idle)") return "idle"
  if (frame.functionName === "(program)") return "V8 and Node (program)"
  return null
}

/** The layers whose JSON.stringify is the answer's encoding. */
const encodingCallers = new Set(["HTTP platform", "MCP", "pipeline", "handler", "server"])

/** Layers that do not pass themselves on to the frames they call. */
const weak = new Set(["Effect runtime", "Node internals", "V8 builtins", "other libraries", "V8 and Node (program)", "garbage collection", "idle"])

/** Effect's fiber loop: where a fiber runs, whoever woke it. */
const isFiberLoop = (frame: CallFrame): boolean =>
  frame.functionName === "runLoop" && frame.url.includes("/effect/dist/internal/effect.js")

/** What a neutral frame with no owning caller counts as. */
const fallback = (frame: CallFrame): string =>
  frame.url.startsWith("node:") ? "Node internals" : frame.url.includes("/effect/") ? "Effect runtime" : frame.url === "" ? "V8 builtins" : "other libraries"

export interface Summary {
  /** Milliseconds of CPU (idle excluded) per layer, largest first. */
  readonly layers: ReadonlyArray<{ readonly layer: string; readonly ms: number; readonly share: number }>
  /** The functions with the most self time: name, file, layer. */
  readonly top: ReadonlyArray<{ readonly name: string; readonly where: string; readonly layer: string; readonly ms: number; readonly share: number }>
  readonly busyMs: number
}

const shortPath = (url: string): string => url.replace(/^file:\/\/.*?\/(packages|node_modules)\//, "$1/").replace(/.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")

export const summarise = (profile: CpuProfile, topCount = 25): Summary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const layerOf = new Map<number, string>()
  // A neutral frame's layer is its nearest owning caller's; Effect's runtime counts as its own
  // layer only where no layer of ours called it (the fiber loop at the bottom of a stack).
  const resolve = (id: number): string => {
    const known = layerOf.get(id)
    if (known !== undefined) return known
    const node = byId.get(id)!
    const own = isFiberLoop(node.callFrame) ? "Effect runtime" : ownLayer(node.callFrame)
    // A fiber resumed from a callback (a socket read of the SQL driver, a timer) belongs to none of
    // the layers below which it was resumed: its frames start afresh at the fiber loop.
    const up = isFiberLoop(node.callFrame) ? undefined : parent.get(id)
    const above = own !== null && !weak.has(own) ? null : up === undefined ? null : resolve(up)
    const found = own !== null && !weak.has(own) ? own : above !== null && !weak.has(above) ? above : own ?? fallback(node.callFrame)
    // JSON.stringify of an answer (HTTP's render, MCP's result) is encoding; of an audit event or
    // a stored answer it stays in their layer.
    const layer = node.callFrame.functionName === "stringify" && encodingCallers.has(found) ? "encoding" : found
    layerOf.set(id, layer)
    return layer
  }
  const self = new Map<number, number>()
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000))
  const layers = new Map<string, number>()
  const functions = new Map<string, { name: string; where: string; layer: string; ms: number }>()
  let busyMs = 0
  for (const [id, ms] of self) {
    const node = byId.get(id)!
    const layer = resolve(id)
    // Idle time, and the in-process profiler's own (it serializes the profile on the thread it samples).
    if (layer === "idle" || layer === "profiler") continue
    busyMs += ms
    layers.set(layer, (layers.get(layer) ?? 0) + ms)
    const where = `${shortPath(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`
    const key = `${node.callFrame.functionName}@${where}@${layer}`
    const entry = functions.get(key) ?? { name: node.callFrame.functionName || "(anonymous)", where, layer, ms: 0 }
    entry.ms += ms
    functions.set(key, entry)
  }
  const share = (ms: number) => Math.round((ms / busyMs) * 1000) / 10
  return {
    busyMs: Math.round(busyMs),
    layers: [...layers.entries()].sort((a, b) => b[1] - a[1]).map(([layer, ms]) => ({ layer, ms: Math.round(ms), share: share(ms) })),
    top: [...functions.values()].sort((a, b) => b.ms - a.ms).slice(0, topCount).map((entry) => ({ ...entry, ms: Math.round(entry.ms), share: share(entry.ms) }))
  }
}

/** The summary as text, with each layer's share of the CPU a request costs (`cpuPerRequestUs`). */
export const format = (title: string, summary: Summary, cpuPerRequestUs: number | null): string => {
  const lines = [`## ${title}`, "", `CPU per request (unprofiled window): ${cpuPerRequestUs === null ? "unknown" : `${Math.round(cpuPerRequestUs)} µs`}; profiled busy time ${summary.busyMs} ms`, ""]
  lines.push("| layer | share of busy CPU | µs per request |", "|---|---:|---:|")
  for (const row of summary.layers) {
    lines.push(`| ${row.layer} | ${row.share}% | ${cpuPerRequestUs === null ? "" : Math.round((cpuPerRequestUs * row.share) / 100)} |`)
  }
  lines.push("", "Top functions by self time:", "", "| function | file:line | layer | share |", "|---|---|---|---:|")
  for (const row of summary.top) lines.push(`| ${row.name} | ${row.where} | ${row.layer} | ${row.share}% |`)
  return `${lines.join("\n")}\n`
}
