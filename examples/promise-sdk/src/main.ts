import { createClient } from "@ledger/client"
import { type Order, syncOrders } from "./OrderSync.ts"

// LEDGER_URL=http://127.0.0.1:8080 LEDGER_API_KEY=ldg_... pnpm --filter @ledger/example-promise-sdk start
const baseUrl = process.env.LEDGER_URL ?? "http://127.0.0.1:8080"
const token = process.env.LEDGER_API_KEY
if (token === undefined) throw new Error("Set LEDGER_API_KEY to a key with the propose scope.")

const today = new Date().toISOString().slice(0, 10)
const orders: ReadonlyArray<Order> = [
  { id: "1001", date: today, customer: { name: "Ada Lovelace", email: "ada@example.com" }, lines: [{ description: "Sourdough x 4", amount_cents: 24_00 }], paid_cents: 24_00 },
  { id: "1002", date: today, customer: { name: "Alan Turing", email: "alan@example.com" }, lines: [{ description: "Wedding cake", amount_cents: 380_00 }] }
]
const report = await syncOrders(createClient({ baseUrl, token }), orders)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
