#!/usr/bin/env node
// Not a benchmark: summarises V8 CPU profiles (`node --cpu-prof`, e.g. a bench server's through
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof", bench/lib/ServerProcess.ts).
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 30] [--held 50] [--from 0]
// For each file (one per thread): its span, the time on CPU (not idle), the self time by function
// (name, file:line) and the longest runs of the thread without an idle sample, which is how long
// the event loop was held at a stretch (what /health would have waited), and the self time by
// function counted only inside stretches over `--held` ms (default 50): what held the loop.
import { readFileSync } from "node:fs"
import path from "node:path"

const args = process.argv.slice(2)
const topAt = args.indexOf("--top")
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30
const heldAt = args.indexOf("--held")
// --from S: only samples from S seconds after the profile's start (skips the server's start-up).
const fromAt = args.indexOf("--from")
const fromMs = fromAt >= 0 ? Number(args[fromAt + 1]) * 1000 : 0
const heldMs = heldAt >= 0 ? Number(args[heldAt + 1]) : 50
const values = new Set([topAt, heldAt, fromAt].filter((at) => at >= 0).map((at) => at + 1))
const files = args.filter((argument, index) => !argument.startsWith("--") && !values.has(index))
const print = (title, totals) => {
  process.stdout.write(`${title}\n`)
  for (const [key, ms] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${ms.toFixed(0).padStart(8)} ms  ${key}\n`)
  }
}

const where = (frame) => `${frame.functionName || "(anonymous)"} ${frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ""}`.trim()

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8"))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map()
  const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id))
  let busy = 0
  let stretch = 0
  const stretches = []
  // The current stretch's self time by function, added to `held` when the stretch passes heldMs.
  let current = new Map()
  const held = new Map()
  const close = () => {
    if (stretch > 0) stretches.push(stretch)
    if (stretch > heldMs) starts.push(`${((at - stretch) / 1000).toFixed(1)} s: ${stretch.toFixed(0)} ms`)
    if (stretch > heldMs) for (const [key, ms] of current) held.set(key, (held.get(key) ?? 0) + ms)
    stretch = 0
    current = new Map()
  }
  let at = 0
  const starts = []
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000
    at += (profile.timeDeltas[index] ?? 0) / 1000
    if (at < fromMs) return
    const node = byId.get(id)
    const key = where(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + delta)
    if (idleIds.has(id)) close()
    else {
      busy += delta
      stretch += delta
      current.set(key, (current.get(key) ?? 0) + delta)
    }
  })
  close()
  const span = (profile.endTime - profile.startTime) / 1000
  stretches.sort((a, b) => b - a)
  process.stdout.write(`\n== ${path.basename(file)}: ${(span / 1000).toFixed(1)} s, busy ${(busy / 1000).toFixed(1)} s; ` +
    `longest busy stretches (ms): ${stretches.slice(0, 8).map((ms) => ms.toFixed(0)).join(", ")}\n`)
  process.stdout.write(`-- busy stretches over ${heldMs} ms (from the profile's start): ${starts.join("; ")}\n`)
  print("-- self time", self)
  print(`-- self time inside busy stretches over ${heldMs} ms (what held the loop)`, held)
}
