import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import path from "node:path"

/**
 * A memory-limited control group of the machine's own, for running a process as a container with
 * `--memory` would: cgroup v2 where the unified hierarchy is mounted, else v1's memory controller.
 * Needs root (or a delegated hierarchy); `create` answers null where it cannot make one.
 */
export interface Cgroup {
  readonly directory: string
  readonly version: 1 | 2
  /** The file a process writes its pid to, to move itself in before it runs anything. */
  readonly procsFile: string
  /** How many processes of the group the kernel's OOM killer has killed so far. */
  readonly oomKills: () => number
  readonly remove: () => void
}

const root = "/sys/fs/cgroup"

const oomKillsIn = (file: string): number => {
  try {
    const match = /^oom_kill (\d+)$/m.exec(readFileSync(file, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

/** This process's own group in v1's memory hierarchy, from /proc/self/cgroup ("4:memory:/a/b"). */
const ownMemoryGroupV1 = (): string | null => {
  const line = readFileSync("/proc/self/cgroup", "utf8").split("\n").find((entry) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(entry))
  return line === undefined ? null : line.slice(line.indexOf(":", line.indexOf(":") + 1) + 1)
}

const group = (directory: string, version: 1 | 2, eventsFile: string): Cgroup => ({
  directory,
  version,
  procsFile: path.join(directory, "cgroup.procs"),
  oomKills: () => oomKillsIn(path.join(directory, eventsFile)),
  remove: () => rmdirSync(directory)
})

export const create = (name: string, limitBytes: number): Cgroup | null => {
  let made: string | null = null
  try {
    if (existsSync(path.join(root, "cgroup.controllers"))) {
      // v2: a group under the root, which the no-internal-processes rule does not bind.
      const directory = path.join(root, name)
      mkdirSync(directory)
      made = directory
      writeFileSync(path.join(directory, "memory.max"), String(limitBytes))
      writeFileSync(path.join(directory, "memory.swap.max"), "0")
      return group(directory, 2, "memory.events")
    }
    const own = ownMemoryGroupV1()
    if (own === null) return null
    const directory = path.join(root, "memory", own, name)
    mkdirSync(directory)
    made = directory
    writeFileSync(path.join(directory, "memory.limit_in_bytes"), String(limitBytes))
    return group(directory, 1, "memory.oom_control")
  } catch {
    // A group made but not limited is no use: leave nothing behind.
    if (made !== null) rmdirSync(made)
    return null
  }
}
