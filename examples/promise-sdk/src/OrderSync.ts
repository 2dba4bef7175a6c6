import { isClientError, isDryRun, isPendingApproval, type PromiseClient } from "@ledger/client"

/**
 * An integration written with the Promise SDK: orders from a shop become customers, invoices and
 * payments in Ledger. Every write is keyed by the order it comes from (`order-<id>-invoice`), so
 * the sync can run again after a crash, a timeout or a deploy and never invoices an order twice:
 * the server replays the first result for a key it has seen.
 */

export interface Order {
  readonly id: string
  readonly date: string
  readonly customer: { readonly name: string; readonly email: string }
  readonly lines: ReadonlyArray<{ readonly description: string; readonly amount_cents: number }>
  /** What the shop already collected for it, if anything. */
  readonly paid_cents?: number
}

export interface SyncReport {
  readonly invoicesCreated: number
  readonly invoicesReplayed: number
  readonly paymentsRecorded: number
  readonly waitingForApproval: ReadonlyArray<string>
}

/** The chart's accounts the integration posts to (the `general` starter chart's). */
export const accounts = { sales: "4000", checking: "1010" } as const

/** Finds the customer by email among the company's customers, or creates it (keyed by the email). */
const customerId = async (client: PromiseClient, customer: Order["customer"], known: Map<string, number>): Promise<number> => {
  const cached = known.get(customer.email)
  if (cached !== undefined) return cached
  for await (const contact of client.iterate("listContacts", { kind: "customer", limit: 200 })) {
    if (contact.email !== null) known.set(contact.email, contact.id)
  }
  const found = known.get(customer.email)
  if (found !== undefined) return found
  const created = await client.createContact(
    { kind: "customer", name: customer.name, email: customer.email, terms_days: 30 },
    { idempotencyKey: `customer-${customer.email}` }
  )
  known.set(customer.email, created.id)
  return created.id
}

export const syncOrders = async (client: PromiseClient, orders: ReadonlyArray<Order>): Promise<SyncReport> => {
  const known = new Map<string, number>()
  let invoicesCreated = 0
  let invoicesReplayed = 0
  let paymentsRecorded = 0
  const waitingForApproval: Array<string> = []

  for (const order of orders) {
    const contact_id = await customerId(client, order.customer, known)
    const response = await client.request(
      "createInvoice",
      {
        contact_id,
        doc_date: order.date,
        reference: `Order ${order.id}`,
        lines: order.lines.map((line) => ({ description: line.description, amount_cents: line.amount_cents, account: accounts.sales }))
      },
      { idempotencyKey: `order-${order.id}-invoice` }
    )
    const invoice = response.body
    if (isPendingApproval(invoice)) {
      // An agent's key over its threshold: a person decides; nothing to pay against yet.
      waitingForApproval.push(order.id)
      continue
    }
    if (isDryRun(invoice)) throw new Error("a dry run was not asked for")
    if (response.replayed) invoicesReplayed++
    else invoicesCreated++

    if (order.paid_cents !== undefined && order.paid_cents > 0) {
      try {
        const payment = await client.request(
          "receivePayment",
          {
            contact_id,
            payment_date: order.date,
            account: accounts.checking,
            applications: [{ document_id: invoice.id, amount_cents: Math.min(order.paid_cents, invoice.total_cents) }]
          },
          { idempotencyKey: `order-${order.id}-payment` }
        )
        if (!payment.replayed) paymentsRecorded++
      } catch (error) {
        // A refusal says exactly why, by type; anything else is not ours to hide.
        if (isClientError(error, "validation_failed")) throw new Error(`order ${order.id}: ${error.message}`)
        throw error
      }
    }
  }
  return { invoicesCreated, invoicesReplayed, paymentsRecorded, waitingForApproval }
}
