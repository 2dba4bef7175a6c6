// The entry of the pool's worker threads (Pool.ts) when the server runs from its TypeScript
// sources (the workspace, tests): a worker thread does not inherit the loader hooks of the thread
// that started it, so it registers tsx itself, as bin/ledger.mjs does, then loads the job table.
// A built server starts its workers on dist/offload/PoolWorker.js directly.
import { register } from "tsx/esm/api"

register()
const worker = await import(new URL("./PoolWorker.ts", import.meta.url).href)

export default worker.default
