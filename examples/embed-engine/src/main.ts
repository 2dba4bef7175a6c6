import { run } from "./Bookkeeping.ts"

// `pnpm --filter @ledger/example-embed-engine start [folder]`: with a folder, the books persist
// and a second run replays the first (the same company, the same entries).
const summary = await run(process.argv[2] ?? "memory")
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
