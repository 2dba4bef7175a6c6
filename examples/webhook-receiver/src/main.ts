import { createServer } from "node:http"
import { nodeListener } from "./NodeListener.ts"
import { webhookReceiver } from "./Receiver.ts"

// LEDGER_WEBHOOK_SECRET=ldgwhsec_... PORT=3000 pnpm --filter @ledger/example-webhook-receiver start
// During a rotation, LEDGER_WEBHOOK_PREVIOUS_SECRET keeps the old secret accepted until it ends.
const secret = process.env.LEDGER_WEBHOOK_SECRET
if (secret === undefined) throw new Error("Set LEDGER_WEBHOOK_SECRET to the endpoint's signing secret.")
const previous = process.env.LEDGER_WEBHOOK_PREVIOUS_SECRET
const port = Number(process.env.PORT ?? 3000)

const handle = webhookReceiver({
  secrets: previous === undefined ? secret : [secret, previous],
  onEvent: (event) => {
    process.stdout.write(`${event.type} ${event.id}\n`)
  }
})

createServer(nodeListener(handle)).listen(port, () => process.stdout.write(`Receiving Ledger webhooks on port ${port}\n`))
