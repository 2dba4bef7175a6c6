import { Webhooks } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Deliveries from "./Deliveries.ts"
import * as Delivery from "./Delivery.ts"
import * as DeliveryStore from "./DeliveryStore.ts"
import * as Endpoints from "./Endpoints.ts"

/**
 * Webhooks (spec 3-endpoints-b 4.15, concepts 6): endpoints with sealed signing secrets, signed
 * deliveries from the outbox by the background job `webhook.deliver` with retries, secret
 * rotation, test deliveries, redelivery, the delivery log and the event feed (docs/webhooks.md).
 */
export const area = Area.make({
  name: "webhooks",
  operations: Webhooks.operations,
  handlers: [...Endpoints.handlers, ...Deliveries.handlers],
  jobKinds: {
    [DeliveryStore.jobKind]: {
      run: Delivery.deliver,
      // A job that kept failing by itself (not the receiver: a defect, a secret that no longer opens).
      gaveUp: (job, error) =>
        DeliveryStore.giveUp(job.companyId ?? "", Number(job.payload.delivery_id), Number(job.payload.token), error.slice(0, 1000))
    },
    "webhooks.prune": { run: Delivery.prune, periodic: true }
  }
})

/** What the webhooks area offers outside the engine: the delivery job's name and its rules. */
export { jobKind } from "./DeliveryStore.ts"
export * as WebhookRules from "./WebhookRules.ts"
